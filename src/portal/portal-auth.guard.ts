import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';

const PUBLIC_ROUTE = 'portal:public';

/** A portal route that needs no token whatever `PORTAL_AUTH` says (the API's index). */
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);

/**
 * The portal's bearer token check, as `PORTAL_AUTH` sets it: `token` asks every route but the
 * public ones for a token of role `portal` (the specification, while the API is in testing);
 * `off` serves everyone, as the reference does by default.
 */
@Injectable()
export class PortalAuthGuard implements CanActivate {
  constructor(
    private readonly bearer: BearerAuthGuard,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.config.portalAuth === 'off') return true;
    if (this.reflector.get<boolean>(PUBLIC_ROUTE, context.getHandler()) === true) return true;
    return this.bearer.canActivate(context);
  }
}

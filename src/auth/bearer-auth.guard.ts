import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Role } from './roles';
import { TokenGrant, TokensService } from './tokens.service';

/** Who is calling, as established by `BearerAuthGuard`. */
export interface AuthContext {
  tokenId: string;
  role: Role;
  /** The user the token was issued to, when it was issued to one. */
  user?: string;
}

export type AuthenticatedRequest = Request & { auth: AuthContext };

const REQUIRED_ROLES = 'auth:requiredRoles';
const BEARER = /^Bearer ([^\s]+)\s*$/i;

/**
 * Requires `Authorization: Bearer <token>` with a token of one of `roles` on a controller or a
 * route. Exceptions are Nest's standard ones so that each interface's filter renders them.
 */
export function RequireRole(...roles: [Role, ...Role[]]): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_ROLES, roles), UseGuards(BearerAuthGuard));
}

@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const grant = await this.grantOf(request);
    if (grant === undefined) {
      // RFC 6750: a 401 names the scheme the client should use.
      http.getResponse<Response>().setHeader('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedException('A valid bearer token is required');
    }
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(REQUIRED_ROLES, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (roles !== undefined && !roles.includes(grant.role)) {
      throw new ForbiddenException(`This token's role (${grant.role}) may not use this resource`);
    }
    request.auth = { tokenId: grant.id, role: grant.role, user: grant.user };
    return true;
  }

  private async grantOf(request: Request): Promise<TokenGrant | undefined> {
    const match = BEARER.exec(request.headers.authorization ?? '');
    return match === null ? undefined : this.tokens.verify(match[1]);
  }
}

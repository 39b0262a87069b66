import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  Type,
  UnauthorizedException,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Role } from './roles';
import { TokensService } from './tokens.service';

/** Who is calling, as established by `BearerAuthGuard`. */
export interface AuthContext {
  tokenId: string;
  role: Role;
  /** The user the token was issued to, when it was issued to one. */
  user?: string;
}

export type AuthenticatedRequest = FastifyRequest & { auth: AuthContext };

const REQUIRED_ROLES = 'auth:requiredRoles';
const BEARER = /^Bearer ([^\s]+)\s*$/i;

type Handler = ReturnType<ExecutionContext['getHandler']>;

/**
 * Requires `Authorization: Bearer <token>` with a token of one of `roles` on a controller or a
 * route. Exceptions are Nest's standard ones so that each interface's filter renders them.
 */
export function RequireRole(...roles: [Role, ...Role[]]): ClassDecorator & MethodDecorator {
  return applyDecorators(RolesAllowed(...roles), UseGuards(BearerAuthGuard));
}

/**
 * The roles `BearerAuthGuard` lets through, with the OpenAPI security scheme of each (openapi.ts),
 * for a controller that applies the guard itself.
 */
export function RolesAllowed(...roles: [Role, ...Role[]]): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_ROLES, roles), ...roles.map((role) => ApiBearerAuth(role)));
}

@Injectable()
export class BearerAuthGuard implements CanActivate {
  /**
   * The roles each route requires, by controller and handler: decorators fix them when the app
   * starts, so that reading their metadata again for every request would find the same.
   */
  private readonly requiredRoles = new Map<Type, Map<Handler, Role[] | undefined>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const match = BEARER.exec(request.headers.authorization ?? '');
    const grant = match === null ? undefined : await this.tokens.verify(match[1]);
    if (grant === undefined) {
      // RFC 6750: a 401 names the scheme the client should use.
      http.getResponse<FastifyReply>().header('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedException('A valid bearer token is required');
    }
    const roles = this.rolesOf(context.getClass(), context.getHandler());
    if (roles !== undefined && !roles.includes(grant.role)) {
      throw new ForbiddenException(`This token's role (${grant.role}) may not use this resource`);
    }
    request.auth = { tokenId: grant.id, role: grant.role, user: grant.user };
    return true;
  }

  private rolesOf(controller: Type, handler: Handler): Role[] | undefined {
    let byHandler = this.requiredRoles.get(controller);
    if (byHandler === undefined) this.requiredRoles.set(controller, (byHandler = new Map()));
    if (!byHandler.has(handler)) {
      byHandler.set(handler, this.reflector.getAllAndOverride(REQUIRED_ROLES, [handler, controller]));
    }
    return byHandler.get(handler);
  }
}

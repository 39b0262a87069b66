import {
  CanActivate,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticatedRequest } from '../auth/bearer-auth.guard';
import { APP_CONFIG, AppConfig, RateLimitConfig } from '../config/app-config';

export type RateLimitKind = keyof RateLimitConfig;

const RATE_LIMIT_KIND = 'rateLimit:kind';

/** Every limit counts requests over one minute (`PORTAL_RATE_LIMIT`). */
const WINDOW_MS = 60_000;

/**
 * Whom a request counts against: the portal counts per token (per client address when the
 * request carries none, which the portal's authentication lets through only when it is off).
 */
const KEYS: Record<RateLimitKind, (request: Partial<AuthenticatedRequest> & FastifyRequest) => string> = {
  portal: (request) =>
    request.auth === undefined ? `portal:address:${request.ip}` : `portal:token:${request.auth.tokenId}`,
};

type Limiter = ReturnType<FastifyRequest['server']['rateLimit']>;

/**
 * Limits the requests of a controller or route with Fastify's own plug-in (`@fastify/rate-limit`,
 * registered in `app.setup.ts`), per the `kind`'s key and limit. Past the limit: 429 with
 * `Retry-After` and the `RateLimit-*` headers, in the error format of the interface the path
 * names. Apply it after the authentication guard, whose token it keys on.
 */
export function RateLimited(kind: RateLimitKind): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(RATE_LIMIT_KIND, kind), UseGuards(RateLimitGuard));
}

@Injectable()
export class RateLimitGuard implements CanActivate {
  /** Made on first use, once Fastify has loaded the plug-in. */
  private readonly limiters = new Map<RateLimitKind, Limiter | null>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const kind = this.reflector.getAllAndOverride<RateLimitKind | undefined>(RATE_LIMIT_KIND, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (kind === undefined) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const limiter = this.limiterFor(kind, request);
    // Throws the 429 past the limit, once it has set the headers.
    await limiter?.call(request.server, request, http.getResponse<FastifyReply>());
    return true;
  }

  private limiterFor(kind: RateLimitKind, request: FastifyRequest): Limiter | null {
    let limiter = this.limiters.get(kind);
    if (limiter === undefined) {
      const max = this.config.rateLimits[kind];
      limiter =
        max === 0
          ? null
          : request.server.rateLimit({
              max,
              timeWindow: WINDOW_MS,
              keyGenerator: KEYS[kind],
              errorResponseBuilder: (_request, { max: limit, after }) =>
                new HttpException(
                  `Too many requests: at most ${limit} a minute; retry in ${after}`,
                  HttpStatus.TOO_MANY_REQUESTS,
                ),
            });
      this.limiters.set(kind, limiter);
    }
    return limiter;
  }
}

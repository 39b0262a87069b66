import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers a browser script may read besides the safelisted ones: what ties an answer to the server's log, and when to retry. */
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

/**
 * CORS for the read API only, so that browser portals on other origins can call it. Tokens travel
 * in `Authorization`, never in cookies, so any origin may be allowed and no credentials are.
 */
export function portalCors(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method !== 'OPTIONS') {
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
    return;
  }
  // A preflight (or any OPTIONS): answered here, before authentication, as browsers send no token.
  res.setHeader('Allow', 'GET, HEAD, OPTIONS');
  res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Accept, Content-Type');
  res.setHeader('Access-Control-Max-Age', '86400');
  res.statusCode = 204;
  res.end();
}

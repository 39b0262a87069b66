import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { PinoLogger } from 'nestjs-pino';
import { IdentifiedRequest, RequestLogMiddleware } from './request-log.middleware';

/** A response as the middleware reads it: events, headers and the state Node keeps. */
class FakeResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableFinished = false;
  readonly headers: Record<string, string> = {};

  setHeader(name: string, value: string): void {
    this.headers[name] = value;
  }
}

function setUp(requestId?: string, line: { method?: string; url?: string } = {}) {
  const calls: {
    level: string;
    object: { req: unknown; res: unknown; responseTime: number };
    message: string;
  }[] = [];
  const record = (level: string) => (object: (typeof calls)[number]['object'], message: string) =>
    calls.push({ level, object, message });
  const logger = {
    logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
  };
  const middleware = new RequestLogMiddleware(logger as unknown as PinoLogger);
  const headers = requestId === undefined ? {} : { 'x-request-id': requestId };
  const req = { headers, ...line } as IdentifiedRequest;
  const res = new FakeResponse();
  const next = jest.fn();
  middleware.use(req, res as unknown as ServerResponse, next);
  return { calls, req, res, next };
}

describe('RequestLogMiddleware', () => {
  it('passes the request on at once and logs nothing before it ends', () => {
    const { calls, next } = setUp('abc');
    expect(next).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(0);
  });

  it('logs a finished request once, though Node also emits close after finish', () => {
    const { calls, req, res } = setUp('abc');
    Object.assign(res, { headersSent: true, writableFinished: true, statusCode: 404 });
    res.emit('finish');
    res.emit('close');
    expect(calls).toEqual([
      { level: 'warn', message: 'request completed', object: { req, res, responseTime: expect.any(Number) } },
    ]);
    expect(req.id).toBe('abc');
    expect(res.headers['X-Request-Id']).toBe('abc');
  });

  it('logs a request whose client left before the answer as aborted, at warn', () => {
    const { calls, res } = setUp();
    res.emit('close');
    expect(calls.map(({ level, message }) => [level, message])).toEqual([['warn', 'request aborted']]);
  });

  it('logs a server fault at error', () => {
    const { calls, res } = setUp();
    Object.assign(res, { headersSent: true, writableFinished: true, statusCode: 503 });
    res.emit('finish');
    expect(calls.map(({ level, message }) => [level, message])).toEqual([['error', 'request errored']]);
  });

  it('logs the answers to polled paths (health, metrics, the jobs list, a job) at debug, others at info', () => {
    const levelOf = (method: string, url: string, statusCode = 200) => {
      const { calls, res } = setUp(undefined, { method, url });
      Object.assign(res, { headersSent: true, writableFinished: true, statusCode });
      res.emit('finish');
      return calls[0].level;
    };
    for (const url of ['/health', '/health/ready', '/metrics', '/import/jobs?user=a', '/import/jobs/j1']) {
      expect([url, levelOf('GET', url)]).toEqual([url, 'debug']);
    }
    for (const url of ['/import/jobs/j1/events', '/import/logs', '/api/v1/c1', '/']) {
      expect([url, levelOf('GET', url)]).toEqual([url, 'info']);
    }
    expect(levelOf('DELETE', '/import/jobs/j1')).toBe('info');
    expect(levelOf('GET', '/metrics', 401)).toBe('warn');
  });

  it('gives a request without a usable id a UUID', () => {
    const { req, res } = setUp('bad id with spaces');
    expect(req.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(res.headers['X-Request-Id']).toBe(req.id);
  });
});

import { Controller, Get } from '@nestjs/common';
import type { Options } from 'pino-http';
import request from 'supertest';
import { preflight } from '../../test/support/preflight';
import { TestApp, createTestApp } from '../../test/support/test-app';
import { loadConfig } from '../config/app-config';
import { appLoggerParams, readableLine } from './app-logger';

/** A route that fails as a server fault would, under the portal API's path (its error format). */
@Controller('api/logger-test')
class FailingController {
  @Get('fault')
  fault(): never {
    throw new Error('disk on fire');
  }
}

interface RequestLogLine {
  level: number;
  msg: string;
  req: { id: string; method: string; path: string };
  res: { statusCode: number };
  responseTime: number;
}

interface ErrorLogLine {
  level: number;
  msg: string;
  req?: { id: string };
  err?: { message: string; stack: string };
}

describe('application logs (through the real app)', () => {
  const output: string[] = [];
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({
      env: { LOG_LEVEL: 'info' },
      controllers: [FailingController],
      logDestination: { write: (chunk: string) => void output.push(chunk) },
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** pino-http logs when the response has finished, which may be just after the client has it. */
  async function requestLogLine(requestId: string): Promise<RequestLogLine> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const line = output
        .map((chunk) => JSON.parse(chunk) as Partial<RequestLogLine>)
        .find((entry) => entry.req?.id === requestId && entry.res !== undefined);
      if (line !== undefined) return line as RequestLogLine;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no request log line for ${requestId} in:\n${output.join('')}`);
  }

  it('writes one JSON line per request with id, method, path, status and time', async () => {
    const response = await request(testApp.server).get('/').set('X-Request-Id', 'probe-42');

    expect(response.headers['x-request-id']).toBe('probe-42');
    const line = await requestLogLine('probe-42');
    expect(line).toMatchObject({
      level: 30,
      req: { id: 'probe-42', method: 'GET', path: '/' },
      res: { statusCode: 200 },
    });
    expect(line.responseTime).toEqual(expect.any(Number));
  });

  it('writes one line for a request, not one per logger', async () => {
    await request(testApp.server).get('/no/such/once').set('X-Request-Id', 'once-1');
    await request(testApp.server).get('/').set('X-Request-Id', 'once-2');
    // Lines are written in the order requests finish: once the second's is there, so is the first's.
    await requestLogLine('once-2');
    const lines = output.map((chunk) => JSON.parse(chunk) as Partial<RequestLogLine>);
    expect(lines.filter((line) => line.req?.path === '/no/such/once')).toEqual([
      expect.objectContaining({ req: { id: 'once-1', method: 'GET', path: '/no/such/once' } }),
    ]);
  });

  it('logs a server fault as an error that names the request, beside its request line', async () => {
    const response = await request(testApp.server)
      .get('/api/logger-test/fault')
      .set('X-Request-Id', 'fault-1');

    expect(response.status).toBe(500);
    expect(await requestLogLine('fault-1')).toMatchObject({
      level: 50,
      msg: 'request errored',
      res: { statusCode: 500 },
    });
    const fault = output
      .map((chunk) => JSON.parse(chunk) as ErrorLogLine)
      .find((line) => line.req?.id === 'fault-1' && line.err !== undefined);
    expect(fault).toMatchObject({
      level: 50,
      msg: 'A portal request failed',
      err: { message: 'disk on fire' },
    });
    expect(fault?.err?.stack).toContain('FailingController');
  });

  it('never writes a token, from the Authorization header, a cookie or the query', async () => {
    const bearer = await testApp.token('portal');
    const queryToken = 'query-secret-7f3a9c';
    const cookie = 'session-secret-1b2c3d';

    await request(testApp.server)
      .get(`/?token=${queryToken}`)
      .set('Authorization', `Bearer ${bearer}`)
      .set('Cookie', `session=${cookie}`)
      .set('X-Request-Id', 'with-secrets');

    const line = await requestLogLine('with-secrets');
    expect(line.req.path).toBe('/');
    const written = output.join('');
    for (const secret of [bearer, queryToken, cookie]) expect(written).not.toContain(secret);
  });

  it('logs requests to the root path and to unknown paths too', async () => {
    for (const [path, id, statusCode] of [
      ['/', 'root-1', 200],
      ['/no/such/route?x=1', 'unknown-1', 404],
    ] as const) {
      await request(testApp.server).get(path).set('X-Request-Id', id);
      const line = await requestLogLine(id);
      expect(line).toMatchObject({ req: { method: 'GET', path: path.split('?')[0] }, res: { statusCode } });
    }
  });

  it('writes nothing at info for what probes poll (health, metrics)', async () => {
    await request(testApp.server).get('/health').set('X-Request-Id', 'polled-1');
    await request(testApp.server).get('/').set('X-Request-Id', 'after-polled-1');
    await requestLogLine('after-polled-1');
    const lines = output.map((chunk) => JSON.parse(chunk) as Partial<RequestLogLine>);
    expect(lines.filter((line) => line.req?.id === 'polled-1')).toEqual([]);
  });

  it("logs requests that another module's middleware answers itself (a CORS preflight)", async () => {
    const response = await preflight(testApp.server, '/api/v1/search').set('X-Request-Id', 'preflight-1');

    expect(response.status).toBe(204);
    expect(response.headers['x-request-id']).toBe('preflight-1');
    expect(await requestLogLine('preflight-1')).toMatchObject({
      req: { method: 'OPTIONS', path: '/api/v1/search' },
      res: { statusCode: 204 },
    });
  });

  it('replaces an unusable incoming request id with a UUID and echoes it', async () => {
    const response = await request(testApp.server).get('/no-such-route').set('X-Request-Id', 'x'.repeat(200));

    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const line = await requestLogLine(id);
    expect(line).toMatchObject({ level: 40, res: { statusCode: 404 } });
  });
});

describe('request log serializers', () => {
  const [options] = appLoggerParams(loadConfig({}), { write: () => undefined }).pinoHttp as [Options];

  it('log no status for a response that never sent its headers (an aborted request), as pino does', () => {
    expect(options.serializers?.res({ headersSent: false, statusCode: 200 })).toEqual({ statusCode: null });
    expect(options.serializers?.res({ headersSent: true, statusCode: 204 })).toEqual({ statusCode: 204 });
  });

  it('log the original URL, which a middleware mounted on a path does not see in url, without its query', () => {
    const req = { id: 'r1', method: 'GET', url: '/', originalUrl: '/api/v1/search?q=x&token=secret' };
    expect(options.serializers?.req(req)).toEqual({ id: 'r1', method: 'GET', path: '/api/v1/search' });
  });
});

describe('readableLine (logs on a terminal)', () => {
  it("shows a request's method, path, status and time, and any line's context", () => {
    const request = {
      msg: 'request completed',
      req: { id: 'r1', method: 'GET', path: '/api/v1/c1' },
      res: { statusCode: 200 },
      responseTime: 12,
    };
    expect(readableLine(request, 'msg')).toBe('request completed: GET /api/v1/c1 200 12 ms');
    expect(readableLine({ msg: 'Listening on …', context: 'Start' }, 'msg')).toBe('[Start] Listening on …');
  });
});

import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ImportHttpError } from '../import-errors';
import { allowedUrl, fetchText, UrlLimits } from './url-fetch';

describe('URL fetching', () => {
  let server: Server;
  let port: number;
  const open = { allowPrivate: true, timeoutMs: 5000, maxBytes: 100 };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const routes: Record<string, () => void> = {
        '/doc': () => response.end('document'),
        '/moved': () => response.writeHead(301, { location: '/doc' }).end(),
        '/loop': () => response.writeHead(302, { location: '/loop' }).end(),
        '/to-ftp': () => response.writeHead(302, { location: 'ftp://example.org/doc' }).end(),
        '/declared-big': () => response.writeHead(200, { 'content-length': '1000' }).end('x'.repeat(1000)),
        '/streamed-big': () => {
          response.write('x'.repeat(60));
          response.end('x'.repeat(60));
        },
        '/silent': () => undefined,
      };
      (routes[request.url ?? ''] ?? (() => response.writeHead(404).end()))();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const url = (route: string, host = '127.0.0.1') => allowedUrl(`http://${host}:${port}${route}`);
  const failure = async (route: string, limits: UrlLimits = open, host?: string): Promise<string> => {
    try {
      await fetchText(url(route, host), limits);
    } catch (error) {
      if (error instanceof ImportHttpError) return String(error.details);
      throw error;
    }
    throw new Error('fetched');
  };

  it('fetches a document and follows redirects', async () => {
    expect(await fetchText(url('/doc'), open)).toBe('document');
    expect(await fetchText(url('/moved'), open)).toBe('document');
  });

  it('refuses loopback hosts, by literal or by name, unless allowed', async () => {
    const closed = { ...open, allowPrivate: false };
    expect(await failure('/doc', closed)).toContain('URL refused: 127.0.0.1');
    expect(await failure('/doc', closed, 'localhost')).toContain('URL refused: localhost');
    expect(await failure('/doc', closed, '[::ffff:127.0.0.1]')).toContain('URL refused');
  });

  it('refuses schemes other than http and https, also behind a redirect', async () => {
    expect(() => allowedUrl('file:///etc/passwd')).toThrow(ImportHttpError);
    expect(() => allowedUrl('not a url')).toThrow(ImportHttpError);
    expect(await failure('/to-ftp')).toContain('Only http and https');
  });

  it('refuses error statuses, redirect loops, oversized documents and slow servers', async () => {
    expect(await failure('/missing')).toContain('answered 404');
    expect(await failure('/loop')).toContain('More than 5 redirects');
    expect(await failure('/declared-big')).toContain('larger than the limit of 100 bytes');
    expect(await failure('/streamed-big')).toContain('larger than the limit of 100 bytes');
    expect(await failure('/silent', { ...open, timeoutMs: 100 })).toContain('took longer than 100 ms');
  });
});

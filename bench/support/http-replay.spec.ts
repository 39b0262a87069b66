import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startBareServer } from './bare-server';
import { AnswerReader, lastTotal, replay, requestBytes } from './http-replay';

const answer = (body: string, head = `Content-Length: ${Buffer.byteLength(body)}`) =>
  Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${head}\r\n\r\n${body}`);

describe('lastTotal', () => {
  it("reads the number of the body's last total key", () => {
    expect(lastTotal(Buffer.from('{"data":[{"meta":{"total":3}}],"meta":{"total":4711,"pages":3}}'))).toBe(
      4711,
    );
  });

  it('finds none in a body without the key, or with it only inside a string', () => {
    expect(lastTotal(Buffer.from('{"data":[]}'))).toBeUndefined();
    expect(lastTotal(Buffer.from('{"name":"a \\"total\\":5"}'))).toBeUndefined();
    expect(lastTotal(Buffer.from('{"total":null}'))).toBeUndefined();
  });
});

describe('AnswerReader', () => {
  it('completes an answer however its bytes arrive, and then the next', () => {
    const reader = new AnswerReader();
    const bytes = answer('{"meta":{"total":12}}');
    for (let index = 0; index < bytes.length - 1; index++) {
      expect(reader.take(bytes.subarray(index, index + 1))).toBeUndefined();
    }
    expect(reader.take(bytes.subarray(bytes.length - 1))).toEqual({ status: 200, total: 12 });
    expect(reader.take(Buffer.from(`HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n`))).toEqual({
      status: 404,
      total: undefined,
    });
  });

  it('refuses an answer without a length, and bytes that no request asked for', () => {
    expect(() => new AnswerReader().take(answer('{}', 'Transfer-Encoding: chunked'))).toThrow(
      /Unusable answer/,
    );
    expect(() => new AnswerReader().take(Buffer.concat([answer('{}'), answer('{}')]))).toThrow(/beyond/);
  });
});

describe('replay', () => {
  it('replays every path from its clients against a real server and reads each total', async () => {
    const server = await startBareServer(Buffer.from('{"data":[],"meta":{"total":7}}'), 'application/json');
    try {
      const paths = Array.from({ length: 25 }, (_, index) => `/search?q=${index}`);
      const result = await replay({
        port: server.port,
        headers: { Accept: 'x/y' },
        paths,
        clients: 4,
      });
      expect(result.errors).toBe(0);
      expect(result.latenciesMs).toHaveLength(25);
      expect(result.totals).toEqual(Array.from({ length: 25 }, () => 7));
    } finally {
      await server.close();
    }
  });

  it('asks the opening path first on each connection, untimed, and times only the paths', async () => {
    const asked = new Map<Socket, string[]>();
    const server = http.createServer((req, res) => {
      asked.set(req.socket, [...(asked.get(req.socket) ?? []), req.url!]);
      res.writeHead(req.url === '/refused' ? 403 : 200, { 'Content-Length': 2 }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const paths = Array.from({ length: 12 }, (_, index) => `/search?q=${index}`);
      const result = await replay({ port, headers: {}, paths, clients: 3, openingPath: '/index' });
      expect(result.latenciesMs).toHaveLength(12);
      expect(result.errors).toBe(0);
      expect(result.openingMs).toBeGreaterThanOrEqual(0);
      const connections = [...asked.values()];
      expect(connections).toHaveLength(3);
      for (const connection of connections) expect(connection[0]).toBe('/index');
      expect(connections.flatMap((connection) => connection.slice(1)).sort()).toEqual([...paths].sort());
      await expect(replay({ port, headers: {}, paths, clients: 2, openingPath: '/refused' })).rejects.toThrow(
        'The opening request /refused answered 403',
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('counts a refused connection as an error for each request', async () => {
    const server = await startBareServer(Buffer.from('{}'), 'application/json');
    await server.close();
    const result = await replay({
      port: server.port,
      headers: {},
      paths: ['/a', '/b', '/c'],
      clients: 2,
    });
    expect(result).toMatchObject({ errors: 3, totals: [] });
    expect(result.latenciesMs).toHaveLength(3);
  });
});

describe('requestBytes', () => {
  it('is a keep-alive GET with the given headers', () => {
    expect(requestBytes('/x?q=1', 8080, { Authorization: 'Bearer t' }).toString('latin1')).toBe(
      'GET /x?q=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: keep-alive\r\nAuthorization: Bearer t\r\n\r\n',
    );
  });
});

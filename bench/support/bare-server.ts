import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A bare `node:http` server on a loopback port that answers every request with `body`. */
export interface BareServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The floor of an HTTP benchmark: the same load against a server that does next to nothing, so
 * that readers can tell the measured server's cost from the harness's and the machine's.
 */
export async function startBareServer(body: Buffer, contentType: string): Promise<BareServer> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

import http from 'node:http';
import net from 'node:net';
import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { PrimaryChannel, serveHandedConnections } from './handed-connections';

/**
 * A connected pair of sockets: `client`, and `accepted`, the server side as the primary would
 * hand it over.
 */
async function socketPair(): Promise<{ client: net.Socket; accepted: net.Socket; close: () => void }> {
  const acceptor = net.createServer({ pauseOnConnect: true });
  acceptor.listen(0, '127.0.0.1');
  await once(acceptor, 'listening');
  const accepting = once(acceptor, 'connection') as Promise<[net.Socket]>;
  const client = net.connect((acceptor.address() as AddressInfo).port, '127.0.0.1');
  const [accepted] = await accepting;
  const close = () => {
    client.destroy();
    accepted.destroy();
    acceptor.close();
  };
  return { client, accepted, close };
}

/** What `client` receives until the other side closes the connection. */
async function receivedUntilClosed(client: net.Socket): Promise<string> {
  let text = '';
  client.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  await once(client, 'close');
  return text;
}

describe('serveHandedConnections', () => {
  let told: unknown[];
  /** The primary's end of a worker's channel, as a cluster worker's process is. */
  let primary: EventEmitter & PrimaryChannel;
  let server: http.Server;
  let pair: Awaited<ReturnType<typeof socketPair>>;

  beforeEach(async () => {
    told = [];
    primary = Object.assign(new EventEmitter(), {
      connected: true,
      send: (message: unknown) => told.push(message),
    });
    server = http.createServer(
      { headersTimeout: 300, requestTimeout: 300, connectionsCheckingInterval: 50 },
      (_req, res) => res.end('answered'),
    );
    pair = await socketPair();
  });

  afterEach(() => pair.close());

  it('tells the primary it is ready, serves a connection handed to it, and tells when it closes', async () => {
    serveHandedConnections(server, primary);
    expect(told).toEqual([{ connection: 'ready' }]);

    primary.emit('message', { connection: 'handed' }, pair.accepted);
    pair.client.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');

    expect(await receivedUntilClosed(pair.client)).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*answered$/);
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([{ connection: 'ready' }, { connection: 'closed' }]);
  });

  it('turns Nagle off on a handed connection, as a listening server does on those it accepts', () => {
    const noDelay = jest.spyOn(pair.accepted, 'setNoDelay');
    serveHandedConnections(server, primary);

    primary.emit('message', { connection: 'handed' }, pair.accepted);

    expect(noDelay).toHaveBeenCalledWith(true);
  });

  it('times out a handed connection whose headers never end, as a listening server would', async () => {
    serveHandedConnections(server, primary);
    primary.emit('message', { connection: 'handed' }, pair.accepted);

    pair.client.write('GET / HTTP/1.1\r\nHost: x\r\n');

    expect(await receivedUntilClosed(pair.client)).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it('leaves other messages alone', () => {
    serveHandedConnections(server, primary);
    const connections = jest.fn();
    server.on('connection', connections);

    primary.emit('message', { gather: 'ask', id: 1, topic: 'metrics' }, pair.accepted);
    primary.emit('message', { connection: 'handed' });

    expect(connections).not.toHaveBeenCalled();
  });
});

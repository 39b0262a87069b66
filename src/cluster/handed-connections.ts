import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectionMessage, isConnectionMessage } from './connection-balancer';

function tellPrimary(message: ConnectionMessage): void {
  if (process.connected) process.send?.(message);
}

/**
 * In an HTTP worker: serves on `server`, which does not listen, the connections the primary
 * accepts and hands over (`ConnectionBalancer`), and tells the primary that it is ready and when
 * each of them closes, so that the primary knows how many each worker has open.
 */
export function serveHandedConnections(server: Server): void {
  // Node starts checking connections against `headersTimeout` and `requestTimeout` when a server
  // listens; this one never does, and a client sending its headers slowly must not hold it.
  server.emit('listening');
  process.on('message', (message: unknown, socket?: Socket) => {
    if (!isConnectionMessage(message) || message.connection !== 'handed' || socket === undefined) return;
    socket.once('close', () => tellPrimary({ connection: 'closed' }));
    server.emit('connection', socket);
    socket.resume();
  });
  tellPrimary({ connection: 'ready' });
}

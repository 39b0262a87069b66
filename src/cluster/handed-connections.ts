import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectionMessage, isConnectionMessage } from './connection-balancer';

/** How a worker hears from and talks to the primary: its own process, in a cluster worker. */
export interface PrimaryChannel {
  on(event: 'message', listener: (message: unknown, handle?: unknown) => void): unknown;
  send?(message: ConnectionMessage): unknown;
  connected?: boolean;
}

/**
 * In an HTTP worker: serves on `server`, which does not listen, the connections the primary
 * accepts and hands over (`ConnectionBalancer`), and tells the primary that it is ready and when
 * each of them closes, so that the primary knows how many each worker has open.
 */
export function serveHandedConnections(server: Server, primary: PrimaryChannel = process): void {
  const tell = (message: ConnectionMessage) => {
    if (primary.connected) primary.send?.(message);
  };
  // Node starts checking connections against `headersTimeout` and `requestTimeout` when a server
  // listens; this one never does, and a client sending its headers slowly must not hold it.
  server.emit('listening');
  primary.on('message', (message, handle) => {
    if (!isConnectionMessage(message) || message.connection !== 'handed' || handle === undefined) return;
    const socket = handle as Socket;
    // As Node's accept does for an http.Server (its noDelay is on by default): the primary's
    // plain net server accepted this socket with Nagle's algorithm on, which would hold the last
    // segment of an answer until the client acknowledges the others.
    socket.setNoDelay(true);
    socket.once('close', () => tell({ connection: 'closed' }));
    server.emit('connection', socket);
    socket.resume();
  });
  tell({ connection: 'ready' });
}

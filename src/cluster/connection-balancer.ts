import type { Socket } from 'node:net';

/**
 * Messages between the primary and the HTTP workers about connections (`HTTP_WORKERS` > 1). The
 * primary accepts every connection and hands it to a worker with `handed`, the socket going
 * along as the message's handle.
 */
export type ConnectionMessage =
  /** Worker → primary: the app is ready; connections may be handed to it. */
  | { connection: 'ready' }
  /** Primary → worker: this connection (the handle sent along) is yours. */
  | { connection: 'handed' }
  /** Worker → primary: a connection handed to it has closed. */
  | { connection: 'closed' };

export function isConnectionMessage(message: unknown): message is ConnectionMessage {
  return typeof message === 'object' && message !== null && 'connection' in message;
}

/** A worker as the balancer sees it: where its connections go. */
export interface ConnectionTarget {
  id: number;
  /** Sends the socket to the worker; calls back with an error if it could not be sent. */
  hand(socket: Socket, sent: (error: Error | null) => void): void;
}

/** Connections held while no worker is ready; beyond this, new ones are refused (closed). */
const MAX_WAITING_CONNECTIONS = 1_024;

/**
 * Hands each accepted connection to the ready worker with the fewest open connections. Node's
 * own round robin hands a connection to whichever worker took the last one soonest, so a burst
 * of connections (a portal's pool of keep-alive connections opening at once) can split 34 to
 * 16: the busier worker's clients then wait twice as long for every answer, for as long as the
 * connections live. Connections accepted before any worker is ready wait for the first one.
 */
export class ConnectionBalancer {
  /** Open connections of each ready worker, by worker id. */
  private readonly open = new Map<number, { target: ConnectionTarget; count: number }>();
  private readonly waiting: Socket[] = [];
  /** Where the search for the least busy worker starts: equals take connections in turn. */
  private turn = 0;

  /** `target` is ready: it takes the connections waiting, then its share of new ones. */
  ready(target: ConnectionTarget): void {
    this.open.set(target.id, { target, count: 0 });
    for (const socket of this.waiting.splice(0)) this.hand(socket);
  }

  /** A connection handed to the worker `id` has closed. */
  closed(id: number): void {
    const worker = this.open.get(id);
    if (worker !== undefined && worker.count > 0) worker.count--;
  }

  /** The worker `id` is gone: nothing more is handed to it. */
  gone(id: number): void {
    this.open.delete(id);
  }

  /** Hands `socket` to the ready worker with the fewest open connections, or holds it until one is ready. */
  hand(socket: Socket): void {
    const worker = this.leastBusy();
    if (worker === undefined) {
      if (this.waiting.length < MAX_WAITING_CONNECTIONS) this.waiting.push(socket);
      else socket.destroy();
      return;
    }
    worker.count++;
    worker.target.hand(socket, (error) => {
      if (error === null) return;
      // The worker is going away. The socket may be half sent; its client will connect again.
      this.gone(worker.target.id);
      socket.destroy();
    });
  }

  /** Open connections by ready worker id: what the balancer chooses by. */
  counts(): Map<number, number> {
    return new Map([...this.open].map(([id, { count }]) => [id, count]));
  }

  /** The worker with the fewest open connections; of equals, the next in turn after the last chosen. */
  private leastBusy(): { target: ConnectionTarget; count: number } | undefined {
    const workers = [...this.open.values()];
    if (workers.length === 0) return undefined;
    let chosen = this.turn % workers.length;
    for (let offset = 1; offset < workers.length; offset++) {
      const index = (this.turn + offset) % workers.length;
      if (workers[index].count < workers[chosen].count) chosen = index;
    }
    this.turn = chosen + 1;
    return workers[chosen];
  }
}

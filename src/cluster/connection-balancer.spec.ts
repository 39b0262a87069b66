import type { Socket } from 'node:net';
import { ConnectionBalancer, ConnectionTarget } from './connection-balancer';

/** A stand-in for an accepted socket: the balancer only hands it on or destroys it. */
function socket(name: string): Socket {
  return { name, destroyed: false, destroy: jest.fn() } as unknown as Socket;
}

/** A worker that records the sockets handed to it; `failing` ones report that sending failed. */
function worker(id: number, failing = false) {
  const received: Socket[] = [];
  const target: ConnectionTarget = {
    id,
    hand: (handed, sent) => {
      if (!failing) received.push(handed);
      sent(failing ? new Error('channel closed') : null);
    },
  };
  return { target, received };
}

/** A balancer with workers ready in the order given. */
function balancerWith(...workers: ReturnType<typeof worker>[]): ConnectionBalancer {
  const balancer = new ConnectionBalancer();
  for (const { target } of workers) balancer.ready(target);
  return balancer;
}

/** The names of the sockets handed to a worker. */
function names(sockets: Socket[]): string[] {
  return sockets.map((handed) => (handed as unknown as { name: string }).name);
}

describe('ConnectionBalancer', () => {
  it('hands a burst of connections out evenly, in turn', () => {
    const [a, b] = [worker(1), worker(2)];
    const balancer = balancerWith(a, b);

    for (let index = 0; index < 50; index++) balancer.hand(socket(`c${index}`));

    expect(a.received).toHaveLength(25);
    expect(b.received).toHaveLength(25);
    expect([...balancer.counts()]).toEqual([
      [1, 25],
      [2, 25],
    ]);
  });

  it('hands a new connection to the worker with the fewest open', () => {
    const [a, b] = [worker(1), worker(2)];
    const balancer = balancerWith(a, b);
    for (let index = 0; index < 6; index++) balancer.hand(socket(`c${index}`));

    balancer.closed(2);
    balancer.closed(2);
    balancer.hand(socket('after two closed'));
    balancer.hand(socket('and another'));

    expect(names(b.received).slice(-2)).toEqual(['after two closed', 'and another']);
    expect([...balancer.counts()]).toEqual([
      [1, 3],
      [2, 3],
    ]);
  });

  it('holds connections until a worker is ready', () => {
    const balancer = new ConnectionBalancer();
    const a = worker(1);
    balancer.hand(socket('early'));
    balancer.hand(socket('second'));

    expect(a.received).toHaveLength(0);
    balancer.ready(a.target);

    expect(names(a.received)).toEqual(['early', 'second']);
  });

  it('hands nothing more to a worker that is gone', () => {
    const [a, b] = [worker(1), worker(2)];
    const balancer = balancerWith(a, b);

    balancer.gone(1);
    for (let index = 0; index < 3; index++) balancer.hand(socket(`c${index}`));

    expect(a.received).toHaveLength(0);
    expect(b.received).toHaveLength(3);
  });

  it('drops a worker that cannot be sent to, and closes the connection it was given', () => {
    const [broken, healthy] = [worker(1, true), worker(2)];
    const balancer = balancerWith(broken, healthy);
    const lost = socket('lost');

    balancer.hand(lost);
    balancer.hand(socket('next'));

    expect(lost.destroy).toHaveBeenCalled();
    expect(healthy.received).toHaveLength(1);
    expect(balancer.counts()).toEqual(new Map([[2, 1]]));
  });

  it('refuses connections beyond those it may hold while no worker is ready', () => {
    const balancer = new ConnectionBalancer();
    const sockets = Array.from({ length: 1_025 }, (_, index) => socket(`c${index}`));

    for (const waiting of sockets) balancer.hand(waiting);

    expect(sockets[1_023].destroy).not.toHaveBeenCalled();
    expect(sockets[1_024].destroy).toHaveBeenCalled();
  });
});

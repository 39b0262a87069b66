import cluster, { Worker } from 'node:cluster';
import { relayClusterQueue } from './cluster-queue';

/** A worker as the primary sees it: its pid, and what it was sent. */
function fakeWorker(pid: number) {
  const sent: unknown[] = [];
  const worker = {
    process: { pid },
    isConnected: () => true,
    send: (message: unknown) => sent.push(message),
  } as unknown as Worker;
  return { worker, sent };
}

describe('relayClusterQueue: one bound for every HTTP worker', () => {
  relayClusterQueue({ maxJobs: 2, maxJobsPerUser: 2, maxBytes: 100, maxBytesPerUser: 100 });
  const one = fakeWorker(101);
  const two = fakeWorker(102);
  const ask = (from: ReturnType<typeof fakeWorker>, message: Record<string, unknown>) => {
    cluster.emit('message', from.worker, message);
    return from.sent.at(-1) as { id: number; refusal?: { status: number }; state?: { jobs: number } };
  };

  it('counts the jobs of every worker together, and frees those of a worker that exits', () => {
    expect(ask(one, { clusterQueue: 'admit', id: 1, entry: { id: 'a', user: 'u1', bytes: 10 } })).toEqual({
      clusterQueue: 'answer',
      id: 1,
    });
    expect(
      ask(two, { clusterQueue: 'admit', id: 1, entry: { id: 'b', user: 'u2', bytes: 10 } }).refusal,
    ).toBe(undefined);
    expect(
      ask(two, { clusterQueue: 'admit', id: 2, entry: { id: 'c', user: 'u3', bytes: 0 } }).refusal,
    ).toMatchObject({ status: 503 });
    expect(ask(one, { clusterQueue: 'grow', id: 2, jobId: 'a', bytes: 95 }).refusal).toMatchObject({
      status: 503,
    });
    expect(ask(one, { clusterQueue: 'state', id: 3 }).state).toMatchObject({ jobs: 2, bytes: 20 });

    cluster.emit('message', two.worker, { clusterQueue: 'release', jobId: 'b' });
    expect(ask(two, { clusterQueue: 'admit', id: 3, entry: { id: 'c', user: 'u3', bytes: 0 } }).refusal).toBe(
      undefined,
    );
    cluster.emit('exit', one.worker);
    expect(ask(two, { clusterQueue: 'state', id: 4 }).state).toMatchObject({ jobs: 1, bytes: 0 });
  });
});

import { ImportJob } from './import-job';
import { JobState } from './import-job.types';
import { RemoteJobs } from './remote-jobs';

const spec = { endpoint: 'ead', user: 'mike', parameters: {}, commit: true };

function sharedJob(id: string, state: JobState) {
  const job = new ImportJob(id, spec, new Date().toISOString());
  return { document: { ...job.document(), state }, tokenId: 'token-1' };
}

describe('RemoteJobs', () => {
  it("tells a job's watchers of its changes and its end, and when no job runs any more", async () => {
    const remote = new RemoteJobs();
    remote.updated(7, [sharedJob('a', 'running')]);
    const job = remote.get('a')!;
    expect(job.viewedAs).toEqual({ user: 'mike', tokenId: 'token-1' });
    const told: string[] = [];
    job.on('change', () => told.push('change'));
    job.on('end', () => told.push('end'));
    const idle = remote.whenNoneRunning();
    expect(idle).toBeDefined();

    remote.updated(7, [sharedJob('a', 'running')]);
    remote.updated(7, [sharedJob('a', 'committed')]);
    await idle;
    expect(told).toEqual(['change', 'change', 'end']);
    expect(job.finished).toBe(true);
    expect(remote.whenNoneRunning()).toBeUndefined();
    // A finished job stays as it ended.
    remote.updated(7, [sharedJob('a', 'running')]);
    expect(remote.get('a')!.document().state).toBe('committed');
  });

  it('ends the jobs of a worker that has gone as interrupted, and those of others not', () => {
    const remote = new RemoteJobs();
    remote.updated(7, [sharedJob('a', 'running'), sharedJob('b', 'queued')]);
    remote.updated(8, [sharedJob('c', 'running')]);
    remote.gone(7);
    for (const id of ['a', 'b']) {
      expect(remote.get(id)!.document()).toMatchObject({
        state: 'failed',
        phase: null,
        error: { status: 500, details: expect.stringContaining('Interrupted') },
      });
    }
    expect(remote.get('c')!.document().state).toBe('running');
  });
});

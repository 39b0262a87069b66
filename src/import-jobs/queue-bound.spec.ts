import { QueueBound } from './queue-bound';

const LIMITS = { maxJobs: 3, maxJobsPerUser: 2, maxBytes: 1000, maxBytesPerUser: 600 };

describe('QueueBound', () => {
  it('refuses a third import of one user with 429, and admits another user', () => {
    const bound = new QueueBound(LIMITS);
    expect(bound.admit({ id: 'a1', user: 'alice', bytes: 10 })).toBeUndefined();
    expect(bound.admit({ id: 'a2', user: 'alice', bytes: 10 })).toBeUndefined();
    const refusal = bound.admit({ id: 'a3', user: 'alice', bytes: 10 });
    expect(refusal).toMatchObject({
      status: 429,
      details: expect.stringContaining('IMPORT_QUEUE_MAX_JOBS_PER_USER'),
    });
    expect(bound.admit({ id: 'b1', user: 'bob', bytes: 10 })).toBeUndefined();
    expect(bound.state()).toMatchObject({
      jobs: 3,
      bytes: 30,
      full: expect.stringContaining('IMPORT_QUEUE_MAX_JOBS'),
    });
  });

  it('refuses past the total with 503, and admits again once one is released', () => {
    const bound = new QueueBound({ ...LIMITS, maxJobsPerUser: 3 });
    for (const id of ['a', 'b', 'c']) expect(bound.admit({ id, user: id, bytes: 0 })).toBeUndefined();
    expect(bound.admit({ id: 'd', user: 'd', bytes: 0 })?.status).toBe(503);
    bound.release('b');
    expect(bound.admit({ id: 'd', user: 'd', bytes: 0 })).toBeUndefined();
  });

  it('bounds bytes per user (429) and in all (503), announced or grown', () => {
    const bound = new QueueBound({ ...LIMITS, maxJobsPerUser: 3 });
    expect(bound.admit({ id: 'a1', user: 'alice', bytes: 700 })?.status).toBe(429);
    expect(bound.admit({ id: 'a1', user: 'alice', bytes: 500 })).toBeUndefined();
    expect(bound.grow('a1', 600)).toBeUndefined();
    expect(bound.grow('a1', 601)?.details).toContain('IMPORT_QUEUE_MAX_BYTES_PER_USER');
    expect(bound.admit({ id: 'b1', user: 'bob', bytes: 400 })).toBeUndefined();
    expect(bound.admit({ id: 'c1', user: 'carol', bytes: 1 })).toMatchObject({
      status: 503,
      details: expect.stringContaining('IMPORT_QUEUE_MAX_BYTES'),
    });
    expect(bound.state()).toMatchObject({ jobs: 2, bytes: 1000, full: expect.any(String) });
  });

  it('says when to retry from how long imports held their place, within bounds', () => {
    const bound = new QueueBound({ ...LIMITS, maxJobs: 1 });
    expect(bound.admit({ id: 'a', user: 'a', bytes: 0 }, 0)).toBeUndefined();
    expect(bound.admit({ id: 'b', user: 'b', bytes: 0 })?.retryAfterSeconds).toBe(10);
    bound.release('a', 100_000);
    expect(bound.admit({ id: 'a', user: 'a', bytes: 0 }, 0)).toBeUndefined();
    // Smoothed towards 100 s from 10 s.
    expect(bound.admit({ id: 'b', user: 'b', bytes: 0 })?.retryAfterSeconds).toBe(28);
    bound.release('nothing');
    expect(bound.state().jobs).toBe(1);
  });
});

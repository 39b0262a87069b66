import { once } from 'node:events';
import { request as httpRequest, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ImportJobsService } from '../src/import-jobs/import-jobs.service';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { eadOf } from './support/job-events';
import { until } from './support/polling';
import { holdNextImport } from './support/job-holds';

/**
 * The bound on imports held at once (IMPORT_QUEUE_*): per user 429, in all 503, each with
 * Retry-After and refused before the body is read; readiness says when the queue is full; and a
 * client that sends one import at a time is never refused, however many it sends.
 */

const KiB = 1024;

describe('the import queue, bounded', () => {
  let t: ImportTestApp;
  let jobs: ImportJobsService;
  let port: number;

  beforeAll(async () => {
    t = await createImportTestApp({
      IMPORT_QUEUE_MAX_JOBS: '3',
      IMPORT_QUEUE_MAX_JOBS_PER_USER: '2',
      IMPORT_QUEUE_MAX_BYTES: String(96 * KiB),
      IMPORT_QUEUE_MAX_BYTES_PER_USER: String(64 * KiB),
    });
    jobs = t.app.get(ImportJobsService);
    t.server.listen(0, '127.0.0.1');
    await once(t.server, 'listening');
    port = (t.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  /** Tokens of a new user of their own. */
  async function newUser(): Promise<{ user: string; token: string }> {
    const user = await t.user();
    return { user, token: await t.token('import', user) };
  }

  const postAsync = (who: { user: string; token: string }, fonds: string) =>
    request(t.server)
      .post('/import/ead')
      .query({ scope: 'r1', commit: 'true' })
      .set('Authorization', `Bearer ${who.token}`)
      .set('X-User', who.user)
      .set('Content-Type', 'application/xml')
      .set('Prefer', 'respond-async')
      .send(eadOf(fonds, 3));

  /**
   * Sends the head of an import announcing `length` bytes and no byte of its body: resolves with
   * the answer only if the service answers without reading the body.
   */
  async function headOnly(
    who: { user: string; token: string },
    length: number,
  ): Promise<{ status: number; retryAfter?: string; body: Record<string, unknown> }> {
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/import/ead?scope=r1',
      headers: {
        Authorization: `Bearer ${who.token}`,
        'X-User': who.user,
        'Content-Type': 'application/xml',
        'Content-Length': String(length),
      },
    });
    outgoing.on('error', () => undefined);
    outgoing.flushHeaders();
    const [answer] = (await once(outgoing, 'response')) as [IncomingMessage];
    let text = '';
    for await (const chunk of answer) text += String(chunk);
    outgoing.destroy();
    return {
      status: answer.statusCode!,
      retryAfter: answer.headers['retry-after'],
      body: JSON.parse(text) as Record<string, unknown>,
    };
  }

  const ready = () => request(t.server).get('/health/ready');

  async function untilAllEnded(): Promise<void> {
    await until(
      'the queue to empty',
      () => jobs.queueState(),
      (state) => state.jobs === 0,
      // Imports on Neo4j on a busy machine take seconds each.
      60_000,
    );
  }

  it('refuses a user past IMPORT_QUEUE_MAX_JOBS_PER_USER (429) and all past IMPORT_QUEUE_MAX_JOBS (503), before the body', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const carol = await newUser();
    const hold = holdNextImport(t.app);
    const first = await postAsync(alice, 'qa1').expect(202);
    expect(await hold.reached).toBe(first.body.id);
    await postAsync(alice, 'qa2').expect(202);

    const mine = await headOnly(alice, 100);
    expect(mine.status).toBe(429);
    expect(mine.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(mine.body).toMatchObject({
      status: 429,
      error: 'Too Many Requests',
      details: expect.stringContaining('IMPORT_QUEUE_MAX_JOBS_PER_USER (2)'),
    });
    expect((await ready()).status).toBe(200);

    await postAsync(bob, 'qb1').expect(202);
    const readiness = await ready();
    expect(readiness.status).toBe(503);
    expect(readiness.body.details.importQueue).toMatchObject({
      status: 'down',
      message: expect.stringContaining('IMPORT_QUEUE_MAX_JOBS'),
    });
    const all = await headOnly(carol, 100);
    expect(all.status).toBe(503);
    expect(all.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(all.body.details).toContain('IMPORT_QUEUE_MAX_JOBS (3)');

    hold.release();
    await untilAllEnded();
    expect((await ready()).body.details.importQueue).toMatchObject({ status: 'up', jobs: 0, bytes: 0 });
    await postAsync(carol, 'qc1').expect(202);
    await untilAllEnded();
  });

  it('bounds the bytes announced per user (429) and in all (503), before the body', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const over = await headOnly(alice, 65 * KiB);
    expect(over.status).toBe(429);
    expect(over.body.details).toContain('IMPORT_QUEUE_MAX_BYTES_PER_USER');

    const hold = holdNextImport(t.app);
    const big = eadOf('qbytes', 3).replace('<ead>', `<ead><!-- ${'x'.repeat(60 * KiB)} -->`);
    const held = await request(t.server)
      .post('/import/ead')
      .query({ scope: 'r1', commit: 'true' })
      .set('Authorization', `Bearer ${alice.token}`)
      .set('X-User', alice.user)
      .set('Content-Type', 'application/xml')
      .set('Prefer', 'respond-async')
      .send(big)
      .expect(202);
    expect(await hold.reached).toBe(held.body.id);
    const total = await headOnly(bob, 40 * KiB);
    expect(total.status).toBe(503);
    expect(total.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(total.body.details).toContain('IMPORT_QUEUE_MAX_BYTES');
    hold.release();
    await untilAllEnded();
  });

  it('refuses a chunked body once it passes the bound, with Retry-After', async () => {
    const alice = await newUser();
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/import/ead?scope=r1&commit=true',
      headers: {
        Authorization: `Bearer ${alice.token}`,
        'X-User': alice.user,
        'Content-Type': 'application/xml',
        'Transfer-Encoding': 'chunked',
      },
    });
    const answered = once(outgoing, 'response') as Promise<[IncomingMessage]>;
    for (let sent = 0; sent < 80; sent++) outgoing.write(`<!-- ${'y'.repeat(KiB - 9)} -->`);
    outgoing.end();
    const [answer] = await answered;
    let text = '';
    for await (const chunk of answer) text += String(chunk);
    expect(answer.statusCode).toBe(429);
    expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(JSON.parse(text).details).toContain('IMPORT_QUEUE_MAX_BYTES_PER_USER');
    await untilAllEnded();
  });

  it('never refuses a client that sends one import at a time, past the old 60 a minute', async () => {
    for (let sent = 0; sent < 75; sent++) {
      const response = await t
        .post('test-lines', { scope: 'r1' })
        .set('Content-Type', 'application/xml')
        .send(`seq${sent} One`);
      expect(response.status).toBe(201);
    }
  });
});

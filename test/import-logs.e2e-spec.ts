import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/** Stored import logs: what committed imports leave behind, and `GET /import/logs`. */
describe('import logs', () => {
  let app: ImportTestApp;
  let opsToken: string;

  beforeAll(async () => {
    app = await createImportTestApp();
    opsToken = await app.token('ops');
    await app.addRepository('r2');
    await app.addRepository('r3');
  });
  afterAll(() => app.close());

  const importLines = (query: Record<string, string>, body: string) =>
    app.post('test-lines', query).set('Content-Type', 'application/xml').send(body);
  const logs = (query: Record<string, string> = {}, token = opsToken) =>
    request(app.server).get('/import/logs').query(query).set('Authorization', `Bearer ${token}`);
  const log = (id: string) =>
    request(app.server).get(`/import/logs/${id}`).set('Authorization', `Bearer ${opsToken}`);

  /** Timings as a log tells them: whole milliseconds, none negative, summing to at most the total. */
  const expectTimings = (timings: Record<string, number>, phases: string[]) => {
    expect(Object.keys(timings).sort()).toEqual([...phases, 'total'].sort());
    for (const ms of Object.values(timings)) {
      expect(Number.isInteger(ms)).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(0);
    }
    const { total, ...byPhase } = timings;
    expect(Object.values(byPhase).reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(total);
  };

  it('stores nothing for a dry run, and answers its timings', async () => {
    const before = (await logs()).body.total;
    const response = await importLines({ scope: 'r1', log: 'just looking' }, 'dry1 X');
    expect(response.body).toMatchObject({ created: 1, message: 'just looking', event: null });
    expectTimings(response.body.timings, ['receiving', 'reading', 'comparing', 'writing']);
    expect((await logs()).body.total).toBe(before);
  });

  it('stores a committed import with its parameters, user, tags, log and touched ids', async () => {
    const response = await importLines(
      { scope: 'r1', commit: 'true', tag: 'c.xml', log: 'first load' },
      'c1 One\nc2 Two',
    );
    expect(response.status).toBe(201);
    const stored = await log(response.body.event);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({
      id: response.body.event,
      endpoint: 'test-lines',
      parameters: { scope: 'r1', commit: 'true', tag: 'c.xml', log: 'first load' },
      user: app.userId,
      tokenId: expect.any(String),
      requestId: response.headers['x-request-id'],
      scope: 'r1',
      tags: ['c.xml'],
      log: response.body,
      touched: ['r1-c1', 'r1-c2'],
      outcome: 'succeeded',
      started: expect.any(String),
      finished: expect.any(String),
    });
    expect(Date.parse(stored.body.finished)).toBeGreaterThanOrEqual(Date.parse(stored.body.started));
    // Stored before the commit, as the answer is: the job's timings go on to it.
    expectTimings(stored.body.log.timings, ['receiving', 'reading', 'comparing', 'writing']);

    const again = await importLines({ scope: 'r1', commit: 'true', tag: 'c.xml' }, 'c1 One\nc2 Two');
    expect((await log(again.body.event)).body.touched).toEqual([]);
  });

  it('stores a tag and a parameter named __proto__ like any other', async () => {
    const response = await app
      .post('test-lines', { scope: 'r1', commit: 'true', tag: '__proto__' })
      .query('__proto__=a&__proto__=b')
      .set('Content-Type', 'application/xml')
      .send('pl1 Proto');
    expect(response.status).toBe(201);
    const stored = (await log(response.body.event)).body;
    // Own keys of the parsed answer: reading them by name would not tell them from a prototype.
    expect(Object.entries(stored.log.created_keys)).toEqual([['__proto__', ['r1-pl1']]]);
    expect(Object.keys(stored.parameters).sort()).toEqual(['__proto__', 'commit', 'scope', 'tag']);
    expect(Object.getOwnPropertyDescriptor(stored.parameters, '__proto__')?.value).toEqual(['a', 'b']);
  });

  it('answers and stores a log of more ids than one part record holds, in order', async () => {
    const ids = Array.from({ length: 2345 }, (_, index) => `long${String(index).padStart(4, '0')}`);
    const body = ids.map((id) => `${id} Title of ${id}`).join('\n');
    const response = await importLines({ scope: 'r3', commit: 'true', tag: 'long.xml' }, body);
    expect(response.status).toBe(201);
    expect(response.body.created_keys).toEqual({ 'long.xml': ids.map((id) => `r3-${id}`) });
    const stored = (await log(response.body.event)).body;
    expect(stored.log).toEqual(response.body);
    expect(stored.touched).toEqual(ids.map((id) => `r3-${id}`));

    const again = await importLines({ scope: 'r3', tag: 'again.xml' }, body);
    expect(again.body).toMatchObject({ created: 0, unchanged: ids.length });
    expect(again.body.unchanged_keys).toEqual({ 'again.xml': ids.map((id) => `r3-${id}`) });
  });

  it('stores a failed committed import as failed, with its error, after rolling it back', async () => {
    const response = await importLines(
      { scope: 'r1', commit: 'true', tag: 'bad.xml' },
      'f1 Fine\n!fail here',
    );
    expect(response.status).toBe(400);
    const failed = await logs({ outcome: 'failed', endpoint: 'test-lines' });
    const record = failed.body.items[0];
    // The request's id is the log's own, not its error's.
    const { requestId, ...error } = response.body;
    expect(record).toMatchObject({
      outcome: 'failed',
      user: app.userId,
      scope: 'r1',
      requestId,
      tags: ['bad.xml'],
      tagCount: 1,
      touchedCount: 0,
      error,
    });
    expect(record.log).toBeUndefined();
    expect((await app.items(['r1-f1'])).size).toBe(0);
  });

  it('stores the answer a format shaped, with the ids its finish step touched', async () => {
    await importLines({ scope: 'r1', commit: 'true' }, 'gone1 Old');
    const response = await app
      .post('test-sync')
      .query('scope=r1&commit=true&delete=r1-gone1')
      .set('Content-Type', 'application/xml')
      .send('s1 New');
    const stored = await log(response.body.log.event);
    expect(stored.body).toMatchObject({ result: response.body, touched: ['r1-s1', 'r1-gone1'] });
  });

  it('takes the log message from a file inside the import roots, never from outside', async () => {
    await writeFile(path.join(app.root, 'message.txt'), 'Loaded from the March delivery\n');
    const inside = await importLines({ scope: 'r1', commit: 'true', log: 'message.txt' }, 'm1 X');
    expect(inside.body.message).toBe('Loaded from the March delivery\n');
    expect((await log(inside.body.event)).body.log.message).toBe('Loaded from the March delivery\n');

    const outside = await importLines({ scope: 'r1', log: '/etc/hostname' }, 'm2 X');
    expect(outside.body.message).toBe('/etc/hostname');
    const escaping = await importLines({ scope: 'r1', log: '../../../../etc/hostname' }, 'm3 X');
    expect(escaping.body.message).toBe('../../../../etc/hostname');
  });

  describe('GET /import/logs', () => {
    let otherUser: string;
    const ours: string[] = [];

    beforeAll(async () => {
      otherUser = await app.user();
      for (const [index, scope] of ['r2', 'r2', 'r2'].entries()) {
        const response = await importLines({ scope, commit: 'true' }, `page${index} X`);
        ours.push(response.body.event);
      }
      await app
        .post('test-lines', { scope: 'r2', commit: 'true' })
        .set('X-User', otherUser)
        .set('Content-Type', 'application/xml')
        .send('other1 X');
    });

    it('lists newest first, filtered by scope and user, a page at a time', async () => {
      const first = await logs({ scope: 'r2', user: app.userId, limit: '2' });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ total: 3, page: 1, limit: 2 });
      expect(first.body.items.map((item: { id: string }) => item.id)).toEqual([ours[2], ours[1]]);

      const second = await logs({ scope: 'r2', user: app.userId, limit: '2', page: '2' });
      expect(second.body.items.map((item: { id: string }) => item.id)).toEqual([ours[0]]);

      const byOther = await logs({ scope: 'r2', user: otherUser });
      expect(byOther.body.total).toBe(1);
      expect(byOther.body.items[0].user).toBe(otherUser);
    });

    it('filters by endpoint, outcome and start time', async () => {
      expect(
        (await logs({ endpoint: 'test-sync' })).body.items.every(
          (item: { endpoint: string }) => item.endpoint === 'test-sync',
        ),
      ).toBe(true);
      expect((await logs({ endpoint: 'no-such-endpoint' })).body.total).toBe(0);
      const succeeded = await logs({ outcome: 'succeeded', limit: '100' });
      expect(succeeded.body.items.every((item: { outcome: string }) => item.outcome === 'succeeded')).toBe(
        true,
      );

      const newest = (await log(ours[2])).body.started as string;
      const fromNewest = await logs({ scope: 'r2', user: app.userId, from: newest });
      expect(fromNewest.body.items.map((item: { id: string }) => item.id)).toEqual([ours[2]]);
      const oldest = (await log(ours[0])).body.started as string;
      const toOldest = await logs({ scope: 'r2', user: app.userId, to: oldest });
      expect(toOldest.body.items.map((item: { id: string }) => item.id)).toEqual([ours[0]]);
      const today = new Date().toISOString().slice(0, 10);
      expect((await logs({ scope: 'r2', to: today })).body.total).toBe(4);
      expect((await logs({ scope: 'r2', from: '2999-01-01' })).body.total).toBe(0);
    });

    it.each([
      ['page', '0'],
      ['limit', '101'],
      ['limit', 'ten'],
      ['outcome', 'maybe'],
      ['from', 'yesterday'],
    ])('answers 400 to %s=%s', async (name, value) => {
      const response = await logs({ [name]: value });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 400, error: 'Bad Request' });
      expect(response.body.details).toContain(name);
    });

    it('needs an ops token', async () => {
      expect((await request(app.server).get('/import/logs')).status).toBe(401);
      const withImportToken = await logs({}, app.importToken);
      expect(withImportToken.status).toBe(403);
      expect(withImportToken.body).toMatchObject({ status: 403, error: 'Forbidden' });
    });

    it('answers 404 for an unknown log id', async () => {
      const response = await log('no-such-log');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        status: 404,
        error: 'Not Found',
        details: 'Import log not found: no-such-log',
        requestId: response.headers['x-request-id'],
      });
    });
  });
});

import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/** A listed log's share of the list's answer, at most, whatever the import's size. */
const MAX_BYTES_PER_LISTED_LOG = 2048;

/** `GET /import/logs` lists counts, never item ids; `GET /import/logs/{id}/items` pages them. */
describe('import logs: summaries in the list, items paged from one log', () => {
  let app: ImportTestApp;
  let opsToken: string;
  let first: string;
  let second: string;

  const lines = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(4, '0')} Unit`).join('\n');
  const importLines = async (body: string, tag: string) => {
    const response = await app
      .post('test-lines', { scope: 'r1', commit: 'true', 'allow-update': 'true', tag })
      .set('Content-Type', 'application/xml')
      .send(body);
    expect(response.status).toBe(201);
    return response.body.event as string;
  };
  const get = (url: string, query: Record<string, string> = {}) =>
    request(app.server).get(url).query(query).set('Authorization', `Bearer ${opsToken}`);

  beforeAll(async () => {
    app = await createImportTestApp();
    opsToken = await app.token('ops');
    first = await importLines(lines('u', 2000), 'many.txt');
    // The same 2,000 units unchanged, and 1,000 more created.
    second = await importLines(`${lines('u', 2000)}\n${lines('v', 1000)}`, 'more.txt');
  }, 60_000);
  afterAll(() => app.close());

  it('answers the list with counts, in a few KB per log whatever the imports held', async () => {
    const response = await get('/import/logs', { limit: '20' });

    expect(response.status).toBe(200);
    expect(response.body.items).toHaveLength(2);
    expect(response.text.length).toBeLessThan(2 * MAX_BYTES_PER_LISTED_LOG);
    expect(response.text).not.toContain('r1-u0000');
    const [newest, oldest] = response.body.items;
    expect(newest).toMatchObject({
      id: second,
      tags: ['more.txt'],
      tagCount: 1,
      touchedCount: 1000,
      log: { created: 1000, updated: 0, unchanged: 2000, errors: 0, event: second },
    });
    expect(oldest).toMatchObject({ id: first, touchedCount: 2000, log: { created: 2000 } });
    expect(newest).not.toHaveProperty('touched');
  });

  it('pages the ids of one log: created first, then unchanged, by source', async () => {
    const page = await get(`/import/logs/${second}/items`, { page: '10', limit: '100' });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3000, page: 10, limit: 100 });
    expect(page.body.items).toHaveLength(100);
    expect(page.body.items[0]).toEqual({ id: 'r1-v0900', change: 'created', tag: 'more.txt' });
    expect(page.body.items[99]).toEqual({ id: 'r1-v0999', change: 'created', tag: 'more.txt' });

    const unchanged = await get(`/import/logs/${second}/items`, {
      change: 'unchanged',
      page: '20',
      limit: '100',
    });
    expect(unchanged.body.total).toBe(2000);
    expect(unchanged.body.items.at(-1)).toEqual({ id: 'r1-u1999', change: 'unchanged', tag: 'more.txt' });
    expect(unchanged.text.length).toBeLessThan(10_000);

    const past = await get(`/import/logs/${second}/items`, { page: '31', limit: '100' });
    expect(past.body).toMatchObject({ total: 3000, items: [] });
  });

  it('refuses an unknown change with 400 and an unknown log with 404', async () => {
    const bad = await get(`/import/logs/${first}/items`, { change: 'deleted' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toContain('Parameter "change"');
    expect((await get('/import/logs/no-such-log/items')).status).toBe(404);
  });
});

import { open } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { ItemWrite } from '../src/graph/graph-store';
import { itemHash } from '../src/items/change-detection';
import { until } from './support/polling';
import { createTestApp, TestApp } from './support/test-app';

const PAGE_BYTES = 8192;

/** Log lines of the apps of this file (nestjs-pino takes the first app's destination for all). */
const logLines: string[] = [];
const logDestination = { write: (line: string) => void logLines.push(line) };

function repositories(count: number): ItemWrite[] {
  return Array.from({ length: count }, (_, n) => {
    const bundle = {
      id: `r${n}`,
      type: 'Repository' as const,
      data: { identifier: `r${n}`, name: `Repository number ${n} ${'with a longer name '.repeat(4)}` },
      relations: {},
    };
    return { bundle, hash: itemHash(bundle) };
  });
}

/** Overwrites the store file's pages from `first` (0-based) to the last but one with noise. */
async function damagePages(file: string, first: number): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    const pages = Math.floor((await handle.stat()).size / PAGE_BYTES);
    const noise = Buffer.alloc(PAGE_BYTES, 0xa5);
    for (let page = first; page < pages - 1; page++)
      await handle.write(noise, 0, PAGE_BYTES, page * PAGE_BYTES);
  } finally {
    await handle.close();
  }
}

const pageCount = async (file: string) => {
  const handle = await open(file, 'r');
  try {
    return Math.floor((await handle.stat()).size / PAGE_BYTES);
  } finally {
    await handle.close();
  }
};

describe('Readiness tells the truth about the store', () => {
  let folder: string;
  let file: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'store-health-'));
    file = path.join(folder, 'archive.db');
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const appOn = () =>
    createTestApp({ env: { GRAPH_URL: `sqlite:${file}`, LOG_LEVEL: 'info' }, logDestination });

  async function filledStore(): Promise<number> {
    const t = await appOn();
    const before = await pageCount(file);
    await t.store.write((tx) => tx.putItems(repositories(3000)));
    await t.close();
    return before;
  }

  const health = (t: TestApp) => request(t.server).get('/health');
  const notReadyLogged = () => logLines.filter((line) => line.includes('The store is not ready'));

  it('finds damaged pages at start: not ready, with the reason in the answer and in the log', async () => {
    const firstNewPage = await filledStore();
    await damagePages(file, firstNewPage + 10);
    const logged = notReadyLogged().length;
    const t = await appOn();
    try {
      const answer = await health(t).expect(503);
      expect(answer.body.details.graph).toEqual({
        status: 'down',
        // What the check lists, or why it could not run (a damaged full-text table may stop it).
        problems: [expect.stringMatching(/^the store file is damaged \(integrity check( failed)?: /)],
      });
      expect(notReadyLogged().length).toBe(logged + 1);
      expect(notReadyLogged().at(-1)).toContain('the store file is damaged');
    } finally {
      await t.close();
    }
  });

  it('finds damage met at run time: a read of a damaged page makes it not ready', async () => {
    const firstNewPage = await filledStore();
    const t = await appOn();
    try {
      await health(t).expect(200);
      await damagePages(file, firstNewPage + 10);
      const read = await t.store
        .read((tx) => tx.getItems(repositories(3000).map((write) => write.bundle.id)))
        .then(
          () => 'read',
          (error: Error) => error.message,
        );
      expect(read).toMatch(/malformed|corrupt/);
      const answer = await health(t).expect(503);
      expect(answer.body.details.graph.problems).toEqual([
        expect.stringContaining('the store file is damaged'),
      ]);
    } finally {
      await t.close();
    }
  });

  it('is not ready while the store cannot be written, refuses imports with 503, and says when it is ready again', async () => {
    const t = await appOn();
    const user = await t.user();
    const importToken = await t.token('import');
    try {
      await health(t).expect(200);
      // As a file system remounted read-only would: SQLite refuses every write on the connection.
      const writer = (t.store as unknown as { writer: { db: { pragma(text: string): unknown } } }).writer;
      writer.db.pragma('query_only = 1');
      const answer = await health(t).expect(503);
      expect(answer.body.details.graph.problems).toEqual([
        'the store cannot be written: attempt to write a readonly database',
      ]);
      expect(notReadyLogged().at(-1)).toContain('the store cannot be written');
      const imported = await request(t.server)
        .post('/import/csv')
        .query({ importer: 'countries', commit: 'true' })
        .set('Authorization', `Bearer ${importToken}`)
        .set('X-User', user)
        .set('Content-Type', 'text/csv')
        .send('countryCode,summary\nnl,Changed\n');
      expect(imported.status).toBe(503);
      expect(imported.body.details).toBe(
        'The store cannot be written now (it is read-only): nothing was imported',
      );
      const notReadyAt = logLines.length;
      writer.db.pragma('query_only = 0');
      // Ready again at the first check whose write attempt is not kept waiting by another's lock.
      await until(
        'health once writable',
        async () => (await health(t)).status,
        (status) => status === 200,
      );
      expect(logLines.slice(notReadyAt).some((line) => line.includes('"The store is ready"'))).toBe(true);
    } finally {
      await t.close();
    }
  });
});

import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GraphReader } from '../../graph/graph-store';
import { ImportEvent, ImportSource, ItemDeferred } from '../formats/read-events';
import { fileSource } from '../sources/workspace';
import { ReadMemos } from './read-memos';

const RECIPE = { reader: 'test', settings: { lang: 'eng' } };

/** A store holding `hashes` by id: all a memo asks of it. */
function storeHolding(hashes: Record<string, string>): GraphReader {
  const getHashes = (ids: readonly string[]) =>
    Promise.resolve(new Map(ids.filter((id) => id in hashes).map((id) => [id, hashes[id]])));
  return { getHashes } as unknown as GraphReader;
}

function deferred(id: string, hash: string): ItemDeferred {
  return {
    kind: 'deferred',
    tag: 'doc.xml',
    id,
    hash,
    build: () => ({
      kind: 'item',
      tag: 'doc.xml',
      write: { bundle: { id, type: 'DocumentaryUnit', data: {}, relations: {} } },
      hash,
    }),
  };
}

const READ: ImportEvent[] = [
  deferred('a', 'hash-a'),
  { kind: 'invalid', tag: 'doc.xml', key: 'c2', message: 'Missing unitid at line 3, column 5' },
  deferred('b', 'hash-b'),
];
const HELD = { a: 'hash-a', b: 'hash-b' };

/** What the run sees of events: everything but how a deferred item is built. */
function seen(events: readonly ImportEvent[]): unknown[] {
  return events.map((event) => (event.kind === 'deferred' ? { ...event, build: undefined } : event));
}

describe('ReadMemos', () => {
  let folder: string;
  let document: string;
  let memos: ReadMemos;
  let reads: number;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'read-memos-'));
    document = path.join(folder, 'doc.xml');
    await writeFile(document, '<ead/>');
    memos = new ReadMemos({ folder: path.join(folder, 'memos'), maxBytes: 1024 * 1024 });
    reads = 0;
  });

  afterEach(() => rm(folder, { recursive: true, force: true }));

  async function* reading(events: readonly ImportEvent[], failAfter = Infinity): AsyncGenerator<ImportEvent> {
    reads += 1;
    for (const [index, event] of events.entries()) {
      if (index === failAfter) throw new Error('malformed');
      yield event;
    }
  }

  async function readAll(
    options: {
      source?: ImportSource;
      store?: GraphReader;
      recipe?: unknown;
      events?: readonly ImportEvent[];
    } = {},
  ): Promise<ImportEvent[]> {
    const events: ImportEvent[] = [];
    const source = options.source ?? fileSource('doc.xml', document);
    const store = options.store ?? storeHolding(HELD);
    for await (const event of memos.read(source, options.recipe ?? RECIPE, store, () =>
      reading(options.events ?? READ),
    )) {
      events.push(event);
    }
    return events;
  }

  const memoFiles = async () =>
    (await readdir(path.join(folder, 'memos'))).filter((name) => name.endsWith('.memo'));

  it('replays a reading when the store holds every item with its hash, building nothing', async () => {
    expect(seen(await readAll())).toEqual(seen(READ));
    expect(await memoFiles()).toHaveLength(1);
    const again = await readAll();
    expect(reads).toBe(1);
    expect(seen(again)).toEqual(seen(READ));
    const replayed = again.find((event) => event.kind === 'deferred') as ItemDeferred;
    expect(() => replayed.build()).toThrow('cannot be built');
  });

  it('reads again when the store lacks an item or holds it with another hash', async () => {
    await readAll();
    await readAll({ store: storeHolding({ a: 'hash-a' }) });
    await readAll({ store: storeHolding({ a: 'hash-a', b: 'other' }) });
    expect(reads).toBe(3);
  });

  it('reads again when the bytes, the tag or the recipe differ', async () => {
    await readAll();
    await readAll({ recipe: { ...RECIPE, settings: { lang: 'fre' } } });
    await readAll({ source: fileSource('other.xml', document) });
    await writeFile(document, '<ead> </ead>');
    await readAll();
    expect(reads).toBe(4);
    expect(await memoFiles()).toHaveLength(4);
  });

  it("finds a memo by the digest a source brings, as by its file's bytes", async () => {
    const digest = createHash('sha256').update('<ead/>').digest('hex');
    await readAll({ source: fileSource('doc.xml', document, { digest }) });
    await readAll();
    expect(reads).toBe(1);
    // The digest stands for the bytes: the file is not read again to find the memo.
    await writeFile(document, '<ead>other</ead>');
    await readAll({ source: fileSource('doc.xml', document, { digest }) });
    expect(reads).toBe(1);
  });

  it('keeps no memo of a reading that fails, or that the run leaves before its end', async () => {
    const read = (failAfter?: number) =>
      memos.read(fileSource('doc.xml', document), RECIPE, storeHolding(HELD), () => reading(READ, failAfter));
    await expect(
      (async () => {
        for await (const _event of read(2));
      })(),
    ).rejects.toThrow('malformed');
    for await (const _event of read()) break;
    expect(await readdir(path.join(folder, 'memos'))).toEqual([]);
    // Either would have been replayed, had it been kept.
    await readAll();
    expect(reads).toBe(3);
  });

  it('keeps no memo of a reading whose file was rewritten meanwhile', async () => {
    async function* rewritingWhileRead(): AsyncGenerator<ImportEvent> {
      yield* reading(READ);
      await writeFile(document, '<ead>other</ead>');
    }
    const source = fileSource('doc.xml', document);
    for await (const _event of memos.read(source, RECIPE, storeHolding(HELD), rewritingWhileRead));
    expect(await readdir(path.join(folder, 'memos'))).toEqual([]);
  });

  it('keeps no memo of a reading with an item it gives no hash for', async () => {
    const unhashed: ImportEvent = {
      kind: 'item',
      tag: 'doc.xml',
      write: { bundle: { id: 'c', type: 'DocumentaryUnit', data: {}, relations: {} } },
    };
    await readAll({ events: [...READ, unhashed] });
    expect(await readdir(path.join(folder, 'memos'))).toEqual([]);
  });

  it('reads a source without a local file, or with memos off, and keeps nothing', async () => {
    const { file: _file, ...inMemory } = fileSource('doc.xml', document);
    await readAll({ source: inMemory });
    memos = new ReadMemos({ folder: path.join(folder, 'memos'), maxBytes: 0 });
    await readAll();
    await readAll();
    expect(reads).toBe(3);
    expect(await readdir(folder)).toEqual(['doc.xml']);
  });

  it('reads again over a memo it cannot make sense of', async () => {
    await readAll();
    const [memo] = await memoFiles();
    await writeFile(path.join(folder, 'memos', memo), '["a", "hash-a"]\nnot json\n');
    expect(seen(await readAll())).toEqual(seen(READ));
    expect(reads).toBe(2);
    // The fresh reading wrote the memo anew.
    await readAll();
    expect(reads).toBe(2);
  });

  it('drops the least recently used memos beyond its size, and memos left unfinished', async () => {
    const memoFolder = path.join(folder, 'memos');
    const source = (tag: string) => fileSource(tag, document);
    await readAll({ source: source('first.xml') });
    await readAll({ source: source('second.xml') });
    const memoSize = (await stat(path.join(memoFolder, (await memoFiles())[0]))).size;
    const aMinuteAgo = new Date(Date.now() - 60 * 1000);
    for (const memo of await memoFiles()) await utimes(path.join(memoFolder, memo), aMinuteAgo, aMinuteAgo);
    const abandoned = path.join(memoFolder, 'x.memo.1-0.tmp');
    await writeFile(abandoned, '');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(abandoned, twoHoursAgo, twoHoursAgo);

    memos = new ReadMemos({ folder: memoFolder, maxBytes: 2 * memoSize });
    await readAll({ source: source('first.xml') });
    expect(reads).toBe(2);
    await readAll({ source: source('third.xml') });
    expect(await memoFiles()).toHaveLength(2);
    expect(await readdir(memoFolder)).not.toContain('x.memo.1-0.tmp');
    reads = 0;
    await readAll({ source: source('first.xml') });
    await readAll({ source: source('third.xml') });
    expect(reads).toBe(0);
    await readAll({ source: source('second.xml') });
    expect(reads).toBe(1);
  });
});

import Database, { Statement } from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/graph/sqlite/schema';
import { SqliteGraphStore } from '../../src/graph/sqlite/sqlite-graph-store';
import { SqliteGraphWriter } from '../../src/graph/sqlite/sqlite-graph-writer';
import { textRow } from '../../src/graph/sqlite/search/text-rows';
import { Bundle, Props } from '../../src/items/bundle';
import { describeChildrenContract } from './graph-store-children.contract';
import { describeListingContract } from './graph-store-listing.contract';
import { describePageContract } from './graph-store-page.contract';
import { describeSearchContract } from './graph-store-search.contract';
import { describeGraphStoreContract } from './graph-store.contract';
import { unit } from './graph-store-fixtures';

function temporaryFolder(): { folder: string; remove(): void } {
  const folder = mkdtempSync(path.join(tmpdir(), 'graph-store-'));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** A store on a file of its own, removed with its folder by `cleanup`. */
async function openTemporaryStore() {
  const { folder, remove } = temporaryFolder();
  const store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
  return {
    store,
    cleanup: async () => {
      await store.close();
      remove();
    },
  };
}

describeGraphStoreContract('SQLite', openTemporaryStore);
describePageContract('SQLite', openTemporaryStore);
describeListingContract('SQLite', openTemporaryStore);
describeChildrenContract('SQLite', openTemporaryStore);

describe('SqliteGraphStore', () => {
  let folder: string;
  let remove: () => void;
  let file: string;

  beforeEach(() => {
    ({ folder, remove } = temporaryFolder());
    file = path.join(folder, 'nested', 'folder', 'archive.db');
  });

  afterEach(() => remove());

  it('creates its folder and records the schema version', async () => {
    const store = await SqliteGraphStore.open(file);
    await store.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('refuses a database from a newer version', async () => {
    await (await SqliteGraphStore.open(file)).close();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    await expect(SqliteGraphStore.open(file)).rejects.toThrow(/schema version/);
  });

  it('migrates a version 1 database, rebuilding its full-text index', async () => {
    mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    db.exec(MIGRATIONS[0].sql);
    db.prepare(
      'INSERT INTO node (rid, id, type, props, hash, updated, path) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(
      7,
      'u1',
      'DocumentaryUnit',
      JSON.stringify({ identifier: 'local-u1' }),
      'hash-u1',
      '2024-01-01T00:00:00.000Z',
      '',
    );
    db.prepare('INSERT INTO node (id, type, owner, props) VALUES (?, ?, ?, ?)').run(
      'u1.eng',
      'DocumentaryUnitDescription',
      'u1',
      JSON.stringify({ name: 'Migrated title', languageCode: 'eng' }),
    );
    db.prepare('INSERT INTO edge (src, type, dst) VALUES (?, ?, ?)').run('u1.eng', 'describes', 'u1');
    db.prepare('INSERT INTO item_text (rowid, names, text) VALUES (?, ?, ?)').run(
      7,
      'local-u1 Migrated title',
      '',
    );
    db.pragma('user_version = 1');
    db.close();

    const store = await SqliteGraphStore.open(file);
    const found = await store.read((tx) =>
      tx.search({ text: 'migrated', types: ['DocumentaryUnit'], offset: 0, limit: 10 }),
    );
    expect(found).toEqual({ total: 1, hits: [{ id: 'u1', type: 'DocumentaryUnit' }] });
    await store.close();
  });

  it('migrates a version 2 database: dependents keep their nesting, edges and text stay', async () => {
    mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    for (const { sql } of MIGRATIONS.slice(0, 2)) db.exec(sql);
    const item = db.prepare(
      "INSERT INTO node (rid, id, type, props, hash, updated, path) VALUES (?, ?, ?, ?, ?, '2024-01-01T00:00:00.000Z', ?)",
    );
    const dependent = db.prepare('INSERT INTO node (id, type, owner, props) VALUES (?, ?, ?, ?)');
    const edge = db.prepare('INSERT INTO edge (src, type, dst) VALUES (?, ?, ?)');
    const text = db.prepare('INSERT INTO item_text (rowid, names, text) VALUES (?, ?, ?)');
    item.run(1, 'nl', 'Country', JSON.stringify({ identifier: 'nl' }), 'hash-nl', '');
    item.run(2, 'r1', 'Repository', JSON.stringify({ identifier: 'r1' }), 'hash-r1', 'nl\u001f');
    edge.run('r1', 'hasCountry', 'nl');
    item.run(
      3,
      'u1',
      'DocumentaryUnit',
      JSON.stringify({ identifier: 'local-u1' }),
      'hash-u1',
      'nl\u001fr1\u001f',
    );
    edge.run('u1', 'heldBy', 'r1');
    // Written in the order the version 2 writer used: each node before the nodes below it.
    const dependents: [string, string, string, object, string, 'in' | 'out'][] = [
      [
        'u1.eng',
        'DocumentaryUnitDescription',
        'u1',
        { name: 'Ghetto records', languageCode: 'eng' },
        'describes',
        'in',
      ],
      ['u1.eng.date0', 'DatePeriod', 'u1.eng', { startDate: '1940-01-01' }, 'hasDate', 'out'],
      ['u1.eng.ap0', 'AccessPoint', 'u1.eng', { name: 'Warsaw', type: 'place' }, 'relatesTo', 'out'],
      [
        'u1.pol',
        'DocumentaryUnitDescription',
        'u1',
        { name: 'Akta getta', languageCode: 'pol' },
        'describes',
        'in',
      ],
      ['u1.event0', 'MaintenanceEvent', 'u1', { eventType: 'creation' }, 'maintenance', 'in'],
    ];
    for (const [id, type, holder, props, relation, direction] of dependents) {
      dependent.run(id, type, 'u1', JSON.stringify(props));
      if (direction === 'out') edge.run(holder, relation, id);
      else edge.run(id, relation, holder);
    }
    item.run(10, 'l1', 'Link', JSON.stringify({ identifier: 'l1' }), 'hash-l1', '');
    edge.run('l1', 'hasLinkTarget', 'u1');
    edge.run('l1', 'hasLinkBody', 'u1.eng.ap0');
    text.run(textRow(3, 'DocumentaryUnit'), 'local-u1 Ghetto records Akta getta', 'Warsaw');
    db.pragma('user_version = 2');
    db.close();

    const store = await SqliteGraphStore.open(file);
    const node = (id: string, type: Bundle['type'], data: Props, relations: Bundle['relations'] = {}) => ({
      id,
      type,
      data,
      relations,
    });
    await store.read(async (tx) => {
      const stored = await tx.getItems(['u1', 'l1']);
      expect(stored.get('u1')!.bundle).toEqual(
        node(
          'u1',
          'DocumentaryUnit',
          { identifier: 'local-u1' },
          {
            describes: [
              node(
                'u1.eng',
                'DocumentaryUnitDescription',
                { name: 'Ghetto records', languageCode: 'eng' },
                {
                  hasDate: [node('u1.eng.date0', 'DatePeriod', { startDate: '1940-01-01' })],
                  relatesTo: [node('u1.eng.ap0', 'AccessPoint', { name: 'Warsaw', type: 'place' })],
                },
              ),
              node('u1.pol', 'DocumentaryUnitDescription', { name: 'Akta getta', languageCode: 'pol' }),
            ],
            maintenance: [node('u1.event0', 'MaintenanceEvent', { eventType: 'creation' })],
          },
        ),
      );
      expect(stored.get('u1')!.edges).toEqual({ heldBy: ['r1'] });
      expect(stored.get('l1')!.edges).toEqual({ hasLinkTarget: ['u1'], hasLinkBody: ['u1.eng.ap0'] });
      expect(await tx.incoming('u1.eng.ap0', 'hasLinkBody')).toEqual(['l1']);
      expect(await tx.findAccessPoints('nl', ['Warsaw'])).toEqual([
        { accessPointId: 'u1.eng.ap0', itemId: 'u1', name: 'Warsaw', type: 'place' },
      ]);
      expect(await tx.search({ text: 'getta', offset: 0, limit: 10 })).toEqual({
        total: 1,
        hits: [{ id: 'u1', type: 'DocumentaryUnit' }],
      });
      const below = await tx.search({ scope: { id: 'nl', depth: 'descendants' }, offset: 0, limit: 10 });
      expect(below.hits.map((hit) => hit.id)).toEqual(['r1', 'u1']);
    });
    await store.close();
  });

  it('refuses a hierarchy that loops, and keeps nothing of the write', async () => {
    const store = await SqliteGraphStore.open(file);
    await expect(
      store.write((tx) =>
        tx.putItems([
          unit('a', { parent: { childOf: 'c' } }),
          unit('b', { parent: { childOf: 'a' } }),
          unit('c', { parent: { childOf: 'b' } }),
        ]),
      ),
    ).rejects.toThrow(/cannot be placed below itself/);
    expect((await store.read((tx) => tx.getHashes(['a', 'b', 'c']))).size).toBe(0);
    await store.close();
  });

  it('lets the second write of an id in one putItems call replace the first', async () => {
    const store = await SqliteGraphStore.open(file);
    const second = unit('u1', { descriptions: [{ lang: 'eng', name: 'Second', accessPoints: ['Lodz'] }] });
    await store.write((tx) =>
      tx.putItems([
        unit('u1', { descriptions: [{ lang: 'eng', name: 'First', accessPoints: ['Riga', 'Kyiv'] }] }),
        second,
      ]),
    );
    await store.read(async (tx) => {
      expect((await tx.getItems(['u1'])).get('u1')!.bundle).toEqual(second.bundle);
      expect((await tx.search({ text: 'first', offset: 0, limit: 10 })).total).toBe(0);
      expect((await tx.search({ text: 'second', offset: 0, limit: 10 })).hits).toEqual([
        { id: 'u1', type: 'DocumentaryUnit' },
      ]);
    });
    await store.close();
  });

  it('works out the paths of the items written when asked to prepare the commit', async () => {
    const store = await SqliteGraphStore.open(file);
    // White box: paths are the adapter's own, and no query of the port shows when they are made.
    const unplaced = (tx: unknown) =>
      (tx as { statement(sql: string, mode: 'pluck'): Statement })
        .statement('SELECT count(*) FROM item WHERE path IS NULL', 'pluck')
        .get();
    await store.write(async (tx) => {
      // A child before its parent, as EAD units end: its path waits for its parent's.
      await tx.putItems([unit('child', { parent: { childOf: 'top' } }), unit('top')]);
      expect(unplaced(tx)).toBe(1);
      await (tx as SqliteGraphWriter).prepareCommit();
      expect(unplaced(tx)).toBe(0);
    });
    expect((await store.read((tx) => tx.ancestors(['child']))).get('child')).toEqual([
      { id: 'top', type: 'DocumentaryUnit' },
    ]);
    await store.close();
  });

  it('keeps data when reopened', async () => {
    const first = await SqliteGraphStore.open(file);
    await first.write((tx) =>
      tx.putItems([unit('u1', { descriptions: [{ lang: 'eng', name: 'Kept title' }] })]),
    );
    await first.close();

    const second = await SqliteGraphStore.open(file);
    const found = await second.read((tx) => tx.search({ text: 'kept', offset: 0, limit: 10 }));
    expect(found.hits).toEqual([{ id: 'u1', type: 'DocumentaryUnit' }]);
    await second.close();
  });

  it('lets two stores on one file write at the same time: the second waits for the lock', async () => {
    const [first, second] = [await SqliteGraphStore.open(file), await SqliteGraphStore.open(file)];
    const firstHoldsLock = deferred();
    const release = deferred();
    const firstWrite = first.write(async (tx) => {
      await tx.putItems([unit('u1')]);
      firstHoldsLock.resolve();
      await release.promise;
    });
    await firstHoldsLock.promise;
    let secondDone = false;
    const secondWrite = second
      .write((tx) => tx.putItems([unit('u2')]))
      .then(() => {
        secondDone = true;
      });
    // The second store keeps retrying asynchronously while the first holds the lock.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(secondDone).toBe(false);
    release.resolve();
    await Promise.all([firstWrite, secondWrite]);

    const hashes = await second.read((tx) => tx.getHashes(['u1', 'u2']));
    expect([...hashes.keys()].sort()).toEqual(['u1', 'u2']);
    await Promise.all([first.close(), second.close()]);
  });

  it('shows a search the writes another store made to the same file', async () => {
    const [server, cli] = [await SqliteGraphStore.open(file), await SqliteGraphStore.open(file)];
    const everything = () => server.read((tx) => tx.search({ offset: 0, limit: 10 }));
    expect((await everything()).total).toBe(0);
    await cli.write((tx) => tx.putItems([unit('u1')]));
    expect((await everything()).hits).toEqual([{ id: 'u1', type: 'DocumentaryUnit' }]);
    await Promise.all([server.close(), cli.close()]);
  });

  it('gives a read transaction one snapshot, even when a write commits during it', async () => {
    const store = await SqliteGraphStore.open(file);
    await store.write((tx) => tx.putItems([unit('u1')]));
    const seen = await store.read(async (tx) => {
      const before = await tx.getHashes(['u1', 'u2']);
      await store.write((writer) => writer.putItems([unit('u2')]));
      const after = await tx.search({ offset: 0, limit: 10 });
      return { before: [...before.keys()], after: after.hits.map((hit) => hit.id) };
    });
    expect(seen).toEqual({ before: ['u1'], after: ['u1'] });
    expect((await store.read((tx) => tx.search({ offset: 0, limit: 10 }))).total).toBe(2);
    await store.close();
  });

  it('refuses a transaction handle used after its transaction ended', async () => {
    const store = await SqliteGraphStore.open(file);
    const escaped = await store.read(async (tx) => tx);
    await expect(escaped.getHashes(['u1'])).rejects.toThrow(/ended/);
    await store.close();
  });
});

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describeSearchContract('SQLite', openTemporaryStore);

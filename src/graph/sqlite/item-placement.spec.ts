import Database from 'better-sqlite3';
import { ItemPlacement } from './item-placement';
import { pathBelow, registerPathKey } from './item-paths';
import { migrate } from './schema';
import { StatementCache } from './statement-cache';

describe('ItemPlacement', () => {
  let db: Database.Database;
  let placement: ItemPlacement;
  let nextRid: number;

  beforeEach(() => {
    db = new Database(':memory:');
    registerPathKey(db);
    migrate(db);
    const statements = new StatementCache(db);
    placement = new ItemPlacement((sql, mode) => statements.get(sql, mode));
    nextRid = 1;
  });

  afterEach(() => db.close());

  /** Points the item's parent edge at `parent`, as the writer stores edges. */
  const setParent = (id: string, parent: string) => {
    db.prepare("DELETE FROM edge WHERE src = ? AND type = 'childOf'").run(id);
    db.prepare("INSERT INTO edge (src, type, dst) VALUES (?, 'childOf', ?)").run(id, parent);
  };
  /** Stores an item as the writer does: with the path `create` gives, or none yet, and its edge. */
  const create = (id: string, parent?: string, ancestors?: string[]) => {
    const rid = nextRid++;
    const path = placement.create(id, rid, parent, ancestors);
    db.prepare("INSERT INTO item (rid, id, type, props, path) VALUES (?, ?, 'DocumentaryUnit', '{}', ?)").run(
      rid,
      id,
      path,
    );
    if (parent !== undefined) setParent(id, parent);
    return path;
  };
  const pathOf = (id: string) => db.prepare('SELECT path FROM item WHERE id = ?').pluck().get(id);
  const below = (...ancestors: string[]) => ancestors.reduce(pathBelow, '');

  it('places children written before their parent', () => {
    create('root');
    const children = Array.from({ length: 150 }, (_, index) => `c${index}`);
    for (const child of children) create(child, 'p');
    create('p', 'root');
    expect(children.map(pathOf).filter((path) => path === null)).toHaveLength(150);

    placement.placeAll();

    expect(pathOf('p')).toBe(below('root'));
    expect(new Set(children.map(pathOf))).toEqual(new Set([below('root', 'p')]));
  });

  it('stores paths that grow with the depth alone, however long the ids grow with it', () => {
    // Ids that repeat their ancestors' ids, as unit ids do, written children first as EAD is.
    const ids = Array.from({ length: 64 }, (_, level) => `${'u'.repeat(1000)}-${level}`);
    const chain = ids.map((_, level) => ids.slice(0, level + 1).join('-'));
    for (let level = chain.length - 1; level >= 0; level--) create(chain[level], chain[level - 1]);
    placement.placeAll();
    chain.forEach((id, level) => expect(pathOf(id)).toHaveLength(17 * level));
    expect(pathOf(chain[63])).toBe(below(...chain.slice(0, 63)));
  });

  it('gives the connection its own page cache back after working out paths', () => {
    db.pragma('cache_size = -12345');
    create('root');
    create('child', 'parent');
    create('parent', 'root');
    placement.placeAll();
    expect(pathOf('child')).toBe(below('root', 'parent'));
    expect(db.pragma('cache_size', { simple: true })).toBe(-12345);
  });

  it('moves items that hang below a bare id once that item is written, in a later round', () => {
    create('root');
    for (const child of ['a1', 'a2']) create(child, 'a');
    create('b1', 'b');
    create('b2', 'b1');
    create('lone', 'nowhere');
    placement.placeAll();
    expect([pathOf('a1'), pathOf('b2')]).toEqual([below('a'), below('b', 'b1')]);

    create('a', 'root');
    create('b', 'a');
    placement.placeAll();

    expect(['a1', 'a2', 'b', 'b1', 'b2', 'lone'].map(pathOf)).toEqual([
      below('root', 'a'),
      below('root', 'a'),
      below('root', 'a'),
      below('root', 'a', 'b'),
      below('root', 'a', 'b', 'b1'),
      below('nowhere'),
    ]);
  });

  it('refuses an item below itself', () => {
    create('x', 'z');
    create('y', 'x');
    create('z', 'y');
    expect(() => placement.placeAll()).toThrow('x cannot be placed below itself');
  });

  it('places an item not placed yet below the parent its edges name by then', () => {
    create('root');
    create('a', 'root');
    create('c', 'nowhere');
    setParent('c', 'a');
    placement.parentChanged('c');

    placement.placeAll();

    expect(pathOf('c')).toBe(below('root', 'a'));
  });

  it('refuses an item below an item that hangs below its bare id', () => {
    create('c', 'a');
    placement.placeAll();
    create('a', 'nowhere');
    setParent('a', 'c');
    placement.parentChanged('a');

    expect(() => placement.placeAll()).toThrow('a cannot be placed below itself');
  });

  it('places a tree written in any order in one round, parents before or after their children', () => {
    // A fixed pseudo-random tree of 3,000 items (more than a page of rows and than the paths
    // remembered), each below an earlier one, written in a shuffled order.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const parents = new Map<string, string>();
    const ids = Array.from({ length: 3000 }, (_, index) => `n${index}`);
    ids.slice(1).forEach((id, index) => parents.set(id, ids[Math.floor(random() * (index + 1))]));
    const order = [...ids.slice(1)];
    for (let index = order.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [order[index], order[other]] = [order[other], order[index]];
    }
    create('n0');
    for (const id of order) create(id, parents.get(id));

    placement.placeAll();

    const expected = (id: string): string => {
      const parent = parents.get(id);
      return parent === undefined ? '' : pathBelow(expected(parent), parent);
    };
    expect(ids.filter((id) => pathOf(id) !== expected(id))).toEqual([]);
  });

  it('places items at once below ancestors not written yet from their chain, as a stream writes children first', () => {
    create('root');
    const fonds = ['root', 'f'];
    const series = ['root', 'f', 's'];
    expect([create('x1', 's', series), create('x2', 's', series)]).toEqual([
      below('root', 'f', 's'),
      below('root', 'f', 's'),
    ]);
    expect(create('y', 'f', fonds)).toBe(below('root', 'f'));
    expect(create('s', 'f', fonds)).toBe(below('root', 'f'));
    expect(create('f', 'root', ['root'])).toBe(below('root'));

    placement.placeAll();

    expect(['x1', 'x2', 'y', 's', 'f'].map(pathOf)).toEqual([
      below('root', 'f', 's'),
      below('root', 'f', 's'),
      below('root', 'f'),
      below('root', 'f'),
      below('root'),
    ]);
  });

  it('places as without a chain the items below an ancestor created elsewhere, or not at all', () => {
    create('root');
    create('other');
    create('x', 's', ['root', 'f', 's']);
    create('y', 'g', ['root', 'g']);
    create('s', 'f', ['root', 'f']);
    // Not where the chains said.
    create('f', 'other');

    placement.placeAll();

    expect(['f', 's', 'x', 'y'].map(pathOf)).toEqual([
      below('other'),
      below('other', 'f'),
      below('other', 'f', 's'),
      below('g'),
    ]);
    // The unconfirmed assumption for g is gone with the round: g, written now, moves y below it.
    create('g', 'root');
    placement.placeAll();
    expect(pathOf('y')).toBe(below('root', 'g'));
  });

  it('leaves to placeAll an item whose chain does not end with its parent, or is too long to assume', () => {
    create('root');
    expect(create('x', 'p', ['root', 'q'])).toBeNull();
    const long = ['root', ...Array.from({ length: 5000 }, (_, index) => `a${index}`)];
    expect(create('deep', 'a4999', long)).toBeNull();
  });
});

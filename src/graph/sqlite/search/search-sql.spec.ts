import Database from 'better-sqlite3';
import { typeFilter } from './search-sql';

describe('typeFilter', () => {
  it('compares a run of codes and lists the others', () => {
    expect(typeFilter([2, 0, 1])).toBe('(item_text.rowid & 15) <= 2');
    expect(typeFilter([3, 4])).toBe('(item_text.rowid & 15) BETWEEN 3 AND 4');
    expect(typeFilter([5])).toBe('(item_text.rowid & 15) = 5');
    expect(typeFilter([0, 2])).toBe('(item_text.rowid & 15) IN (0, 2)');
    expect(typeFilter([])).toBe('0');
  });

  it('keeps the rows of exactly the given codes', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE item_text USING fts5(names, text)');
    const insert = db.prepare("INSERT INTO item_text (rowid, names, text) VALUES (?, 'x', '')");
    for (let rid = 1; rid <= 3; rid++) for (let code = 0; code < 16; code++) insert.run(rid * 16 + code);
    const codesOf = (codes: number[]) =>
      db
        .prepare(
          `SELECT DISTINCT rowid & 15 FROM item_text WHERE item_text MATCH 'x' AND ${typeFilter(codes)}`,
        )
        .pluck()
        .all()
        .sort((a, b) => (a as number) - (b as number));
    for (const codes of [[0, 1, 2], [3, 4, 5], [7], [1, 5, 6], [], [15, 14]]) {
      expect(codesOf(codes)).toEqual([...codes].sort((a, b) => a - b));
    }
    db.close();
  });
});

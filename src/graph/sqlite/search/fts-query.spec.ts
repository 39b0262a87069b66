import Database from 'better-sqlite3';
import { termRange, toFtsQuery } from './fts-query';

describe('toFtsQuery', () => {
  it('quotes every word as a prefix term', () => {
    expect(toFtsQuery('Auschwitz survivors')).toBe('"Auschwitz"* "survivors"*');
    expect(toFtsQuery('Łódź-ghetto 1942')).toBe('"Łódź"* "ghetto"* "1942"*');
  });

  it('asks for the sole term an ASCII word starts, lower-cased, and for other words by prefix', () => {
    const sole = new Map([
      ['recor', 'records'],
      ['camp', 'camp'],
    ]);
    const asked: string[] = [];
    const soleTerm = (prefix: string) => {
      asked.push(prefix);
      return sole.get(prefix);
    };
    expect(toFtsQuery('Recor camp files Łódź', soleTerm)).toBe('"records" "camp" "files"* "Łódź"*');
    expect(asked).toEqual(['recor', 'camp', 'files']);
  });

  it('bounds the terms that start with a prefix', () => {
    expect(termRange('records')).toEqual({ from: 'records', to: 'recordt' });
    expect(termRange('z9')).toEqual({ from: 'z9', to: 'z:' });
    const { from, to } = termRange('file');
    for (const term of ['file', 'files', 'file9', 'filez', 'fileé'])
      expect(term >= from && term < to).toBe(true);
    for (const term of ['fil', 'filf', 'fila']) expect(term >= from && term < to).toBe(false);
  });

  it('has no query for text without words', () => {
    expect(toFtsQuery(undefined)).toBeUndefined();
    expect(toFtsQuery('  ')).toBeUndefined();
    expect(toFtsQuery('"*()')).toBeUndefined();
  });

  it('makes FTS5 syntax in user text harmless', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(a, b)');
    db.prepare('INSERT INTO t (a, b) VALUES (?, ?)').run('near and or not', 'camp');
    const count = db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck();
    for (const text of [
      'NEAR(camp)',
      'AND (',
      'a:camp',
      'NOT camp',
      '"camp',
      'camp*',
      '^camp',
      '-camp',
      '{a b}:x',
    ]) {
      const query = toFtsQuery(text);
      expect(() => count.get(query)).not.toThrow();
    }
    expect(count.get(toFtsQuery('NEAR AND OR NOT'))).toBe(1);
    expect(count.get(toFtsQuery('b:camp'))).toBe(0);
    db.close();
  });
});

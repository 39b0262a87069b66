import { assertPathSafeId, pathBelow, pathContains, pathRange } from './item-paths';

describe('item paths', () => {
  const countryPath = pathBelow('', 'nl');
  const unitPath = pathBelow(pathBelow(countryPath, 'nl-r1'), 'nl-r1-u1');

  it('ranges over exactly the paths below an item', () => {
    const { from, to } = pathRange(pathBelow('', 'nl'));
    const inside = (path: string) => path >= from && path < to;
    expect(inside(countryPath)).toBe(true);
    expect(inside(unitPath)).toBe(true);
    expect(inside(pathBelow('', 'nl-r1'))).toBe(false);
    expect(inside(pathBelow('', 'nlx'))).toBe(false);
    expect(inside(pathBelow('', 'n'))).toBe(false);
    expect(inside('')).toBe(false);
  });

  it('tells whether an id is an ancestor on a path', () => {
    expect(pathContains(unitPath, 'nl-r1')).toBe(true);
    expect(pathContains(unitPath, 'nl')).toBe(true);
    expect(pathContains(unitPath, 'r1')).toBe(false);
    expect(pathContains(unitPath, 'nl-r1-u')).toBe(false);
  });

  it('refuses ids containing the separator', () => {
    expect(() => assertPathSafeId('a\u001fb')).toThrow(/U\+001F/);
    expect(() => assertPathSafeId('nl-r1')).not.toThrow();
  });
});

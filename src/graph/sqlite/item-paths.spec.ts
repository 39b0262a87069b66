import { pathBelow, pathContains, pathKey, pathRange } from './item-paths';

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

  it('grows by one key of fixed length per level, however long the ids', () => {
    const long = 'x'.repeat(10_000);
    expect(pathBelow('', long)).toHaveLength(17);
    expect(pathBelow(pathBelow('', `${long}-a`), `${long}-a-b`)).toHaveLength(34);
    expect(pathKey(long)).not.toBe(pathKey(`${long}y`));
  });

  it('takes ids with the separator in them like any other', () => {
    const odd = pathBelow('', 'a\u001fb');
    expect(odd.split('\u001f')).toHaveLength(2);
    expect(pathContains(odd, 'a\u001fb')).toBe(true);
  });
});

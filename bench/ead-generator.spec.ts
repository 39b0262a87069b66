import { depthToHold, levelSizes } from './ead-generator';

describe('depthToHold', () => {
  it('gives the least depth asked for while the units fit in it', () => {
    expect(depthToHold(100_000, 10, 5)).toBe(5);
    expect(depthToHold(1, 10, 5)).toBe(5);
  });

  it('gives as many levels as the units need beyond it, and levelSizes places them all', () => {
    expect(depthToHold(111_111, 10, 5)).toBe(5);
    expect(depthToHold(111_112, 10, 5)).toBe(6);
    const depth = depthToHold(1_000_000, 10, 5);
    expect(depth).toBe(6);
    const sizes = levelSizes({ units: 1_000_000, fanOut: 10, depth, unitSize: 'lean' });
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(1_000_000);
    expect(() => levelSizes({ units: 1_000_000, fanOut: 10, depth: 5, unitSize: 'lean' })).toThrow(
      /do not fit/,
    );
  });
});

import { respondAsync } from './import.controller';

describe('respondAsync', () => {
  it.each([
    ['respond-async', true],
    ['Respond-Async', true],
    ['return=minimal, respond-async; wait=10', true],
    ['respond-async-later', false],
    ['return=representation', false],
    [undefined, false],
  ])('reads Prefer: %s as %s', (prefer, expected) => {
    expect(respondAsync(prefer)).toBe(expected);
  });
});

import { setFlagsFromString } from 'node:v8';
import { limitHeapGrowth } from './heap-growth';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));

describe('limitHeapGrowth', () => {
  const setFlags = setFlagsFromString as jest.MockedFunction<typeof setFlagsFromString>;

  it('limits growth while any import holds the limit, and gives V8 its choice back after the last', () => {
    const first = limitHeapGrowth();
    const second = limitHeapGrowth();
    expect(setFlags.mock.calls).toEqual([['--heap-growing-percent=50']]);
    first();
    expect(setFlags).toHaveBeenCalledTimes(1);
    second();
    expect(setFlags.mock.calls[1]).toEqual(['--heap-growing-percent=0']);
    limitHeapGrowth();
    expect(setFlags).toHaveBeenCalledTimes(3);
  });
});

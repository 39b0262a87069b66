import { ImportInputError } from '../format-reader';
import { syncParams } from './sync-scope';

describe('syncParams', () => {
  it('takes one fonds and any number of excluded ids', () => {
    expect(syncParams({ fonds: 'r1-f', ex: ['r1-a', 'r1-b'] })).toEqual({
      fonds: 'r1-f',
      excluded: new Set(['r1-a', 'r1-b']),
    });
    expect(syncParams({ ex: 'r1-a' })).toEqual({ fonds: undefined, excluded: new Set(['r1-a']) });
    expect(syncParams({})).toEqual({ fonds: undefined, excluded: new Set() });
  });

  it('refuses a fonds given twice or empty', () => {
    expect(() => syncParams({ fonds: ['a', 'b'] })).toThrow(ImportInputError);
    expect(() => syncParams({ fonds: ' ' })).toThrow('Parameter "fonds" must not be empty');
  });
});

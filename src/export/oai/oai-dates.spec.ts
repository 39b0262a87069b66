import { datestamp, parseDateArgument, updateBounds } from './oai-dates';
import { OaiError } from './oai-errors';

describe('OAI-PMH dates', () => {
  it('reads days and seconds as the first or last millisecond they name', () => {
    expect(parseDateArgument('from', '2024-02-29')).toEqual({
      granularity: 'day',
      bound: '2024-02-29T00:00:00.000Z',
    });
    expect(parseDateArgument('until', '2024-02-29')).toEqual({
      granularity: 'day',
      bound: '2024-02-29T23:59:59.999Z',
    });
    expect(parseDateArgument('from', '2024-02-29T10:11:12Z').bound).toBe('2024-02-29T10:11:12.000Z');
    expect(parseDateArgument('until', '2024-02-29T10:11:12Z').bound).toBe('2024-02-29T10:11:12.999Z');
  });

  it('refuses other forms and dates that do not exist, as badArgument', () => {
    for (const text of [
      '2023-02-29',
      '2024-13-01',
      '2024-1-01',
      '2024-01-01T10:00:00',
      '2024-01-01T10:00Z',
      'yesterday',
    ]) {
      expect(() => parseDateArgument('from', text)).toThrow(OaiError);
    }
  });

  it('refuses bounds of two granularities, or from after until', () => {
    expect(() => updateBounds('2024-01-01', '2024-01-02T00:00:00Z')).toThrow(/same granularity/);
    expect(() => updateBounds('2024-01-02', '2024-01-01')).toThrow(/comes after/);
    expect(updateBounds('2024-01-01', '2024-01-01')).toEqual({
      from: '2024-01-01T00:00:00.000Z',
      until: '2024-01-01T23:59:59.999Z',
    });
    expect(updateBounds()).toEqual({ from: undefined, until: undefined });
  });

  it('writes stored times to the second', () => {
    expect(datestamp('2024-05-06T07:08:09.999Z')).toBe('2024-05-06T07:08:09Z');
  });
});

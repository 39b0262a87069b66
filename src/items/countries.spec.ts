import { COUNTRY_CODES, countryBundle, countryName, isCountryCode } from './countries';

describe('countries', () => {
  it('lists the 249 ISO 3166-1 alpha-2 codes, each once', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    for (const code of COUNTRY_CODES) {
      expect(code).toMatch(/^[A-Z]{2}$/);
    }
  });

  it('names every country in English through ICU', () => {
    for (const code of COUNTRY_CODES) {
      const name = countryName(code);
      expect([code, typeof name]).toEqual([code, 'string']);
      expect(name).not.toBe(code);
    }
  });

  it.each([
    ['nl', 'Netherlands'],
    ['NL', 'Netherlands'],
    ['de', 'Germany'],
    ['gb', 'United Kingdom'],
    ['il', 'Israel'],
    ['ci', 'Côte d’Ivoire'],
  ])('names %s %s', (code, name) => {
    expect(countryName(code)).toBe(name);
  });

  it('knows no other code', () => {
    for (const code of ['', 'x', 'xk', 'eu', 'zz', 'uk', 'nld', '12']) {
      expect([code, isCountryCode(code), countryName(code)]).toEqual([code, false, undefined]);
    }
  });

  it('makes the Country bundle of a code', () => {
    expect(countryBundle('NL')).toEqual({
      id: 'nl',
      type: 'Country',
      data: { identifier: 'nl', name: 'Netherlands' },
      relations: {},
    });
  });

  it('refuses to make a bundle for an unknown code', () => {
    expect(() => countryBundle('xk')).toThrow(RangeError);
  });
});

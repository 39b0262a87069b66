import { LocalNames, languagePreference, preferredFirst } from './languages';

describe('languagePreference', () => {
  it('orders languages by quality, then as listed, as description language codes', () => {
    expect(languagePreference('en;q=0.5, de-CH, fr;q=0.8, nl')).toEqual({
      codes: ['deu', 'nld', 'fra', 'eng'],
      tag: 'de-CH',
    });
  });

  it('leaves out what it cannot read, and ranges refused with q=0', () => {
    expect(languagePreference('*, xx-YY, en;q=0, ger;q=0.3')).toEqual({ codes: ['deu'], tag: 'de' });
  });

  it('is English without a header', () => {
    expect(languagePreference(undefined)).toEqual({ codes: [], tag: 'en' });
  });
});

describe('preferredFirst', () => {
  const order = (codes: string[], header?: string) =>
    preferredFirst(
      codes,
      (code) => code,
      (code) => code,
      languagePreference(header),
    );

  it('puts the preferred languages first, best first, then English, then the rest by key', () => {
    expect(order(['fra', 'eng', 'deu', 'pol'], 'pl, de')).toEqual(['pol', 'deu', 'eng', 'fra']);
    expect(order(['fra', 'deu', 'eng'])).toEqual(['eng', 'deu', 'fra']);
  });

  it('keeps English where the request ranks it', () => {
    expect(order(['eng', 'fra', 'nld'], 'en;q=0.2, fr')).toEqual(['fra', 'eng', 'nld']);
  });
});

describe('LocalNames', () => {
  it('names countries and languages in the language asked for', () => {
    const german = new LocalNames('de');
    expect(german.country('nl')).toBe('Niederlande');
    expect(german.language('heb')).toBe('Hebräisch');
    expect(german.country('not a code')).toBeUndefined();
  });
});

import { ISO_639_1_TO_2T, ISO_639_2B_TO_2T, ISO_639_2T_CODES } from './languages-data';
import { toLanguageCode } from './languages';

describe('toLanguageCode', () => {
  it.each([
    ['de', 'deu'],
    ['ger', 'deu'],
    ['deu', 'deu'],
    ['fr', 'fra'],
    ['fre', 'fra'],
    ['fra', 'fra'],
    ['en', 'eng'],
    ['eng', 'eng'],
    ['sq', 'sqi'],
    ['alb', 'sqi'],
    ['nl', 'nld'],
    ['dut', 'nld'],
    ['he', 'heb'],
    ['yi', 'yid'],
  ])('maps %s to %s', (code, expected) => {
    expect(toLanguageCode(code)).toBe(expected);
  });

  it('ignores case', () => {
    expect(toLanguageCode('DE')).toBe('deu');
    expect(toLanguageCode('Ger')).toBe('deu');
    expect(toLanguageCode('ENG')).toBe('eng');
  });

  it('knows ISO 639-2 languages that have no two-letter code', () => {
    expect(toLanguageCode('ang')).toBe('ang');
    expect(toLanguageCode('lad')).toBe('lad');
    expect(toLanguageCode('cnr')).toBe('cnr');
  });

  it('maps the withdrawn two-letter codes Java still writes', () => {
    expect(toLanguageCode('iw')).toBe('heb');
    expect(toLanguageCode('in')).toBe('ind');
    expect(toLanguageCode('ji')).toBe('yid');
  });

  it.each(['', 'xx', 'zz', 'english', 'en-GB', 'qqq', ' de'])('does not know %p', (code) => {
    expect(toLanguageCode(code)).toBeUndefined();
  });

  it('has complete, consistent tables', () => {
    const terminologic = new Set(ISO_639_2T_CODES);
    expect(terminologic.size).toBe(486);
    expect(Object.keys(ISO_639_1_TO_2T)).toHaveLength(184);
    expect(Object.keys(ISO_639_2B_TO_2T)).toHaveLength(20);
    for (const target of [...Object.values(ISO_639_1_TO_2T), ...Object.values(ISO_639_2B_TO_2T)]) {
      expect(terminologic.has(target)).toBe(true);
    }
    for (const bibliographic of Object.keys(ISO_639_2B_TO_2T)) {
      expect(terminologic.has(bibliographic)).toBe(false);
    }
  });

  it('maps every ISO 639-1 code to the language ICU names the same', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    for (const [twoLetter, terminologic] of Object.entries(ISO_639_1_TO_2T)) {
      expect([twoLetter, typeof names.of(terminologic)]).toEqual([twoLetter, 'string']);
      expect([twoLetter, names.of(twoLetter)]).toEqual([twoLetter, names.of(terminologic)]);
    }
  });
});

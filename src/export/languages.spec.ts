import { BadRequestException } from '@nestjs/common';
import { exportLanguage } from './languages';

describe('exportLanguage', () => {
  it('takes an ISO 639 code of either length, English when none is given', () => {
    expect(exportLanguage(undefined)).toBe('eng');
    expect(exportLanguage('de')).toBe(exportLanguage('deu'));
    expect(exportLanguage(' DE ')).toBe('deu');
    expect(exportLanguage('')).toBe('eng');
  });

  it('refuses what is no language code, and a lang given twice (a list)', () => {
    expect(() => exportLanguage('klingon-ish')).toThrow(BadRequestException);
    expect(() => exportLanguage('klingon-ish')).toThrow('lang="klingon-ish" is not an ISO 639 language code');
    expect(() => exportLanguage(['en', 'de'])).toThrow(/more than once/);
  });
});

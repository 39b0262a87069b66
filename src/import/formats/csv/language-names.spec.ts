import { languageCodeOfName, scriptCodeOf } from './language-names';

describe('languageCodeOfName', () => {
  it.each([
    ['English', 'eng'],
    ['Dutch', 'nld'],
    ['french', 'fra'],
    ['GERMAN', 'deu'],
    ['Hebrew', 'heb'],
    ['Romanian', 'ron'],
    ['Hungarian', 'hun'],
  ])('takes %s as %s', (name, code) => {
    expect(languageCodeOfName(name)).toBe(code);
  });

  it('knows no code for anything else', () => {
    expect(languageCodeOfName('Klingonese')).toBeUndefined();
    expect(languageCodeOfName('en')).toBeUndefined();
  });
});

describe('scriptCodeOf', () => {
  it.each([
    ['Latin', 'Latn'],
    ['Cyrillic', 'Cyrl'],
    ['gothic', 'Goth'],
    ['Hebrew', 'Hebr'],
    ['latn', 'Latn'],
    ['CYRL', 'Cyrl'],
  ])('takes %s as %s', (name, code) => {
    expect(scriptCodeOf(name)).toBe(code);
  });

  it('knows no code for anything else', () => {
    expect(scriptCodeOf('Elvish runes')).toBeUndefined();
  });
});

import { ISO_639_1_TO_2T, ISO_639_2T_CODES } from '../../../items/languages-data';

/**
 * CSV cells name languages and scripts as people write them ("English", "Latin"); the reference
 * (`LanguageHelpers`) stores them as codes. English names come from ICU, as the reference takes
 * them from Java's locale data.
 */

/** The ISO 15924 script codes. */
const ISO_15924_CODES = `
  Adlm Afak Aghb Ahom Arab Aran Armi Armn Avst Bali Bamu Bass Batk Beng Bhks Blis Bopo Brah Brai
  Bugi Buhd Cakm Cans Cari Cham Cher Chis Chrs Cirt Copt Cpmn Cprt Cyrl Cyrs Deva Diak Dogr Dsrt
  Dupl Egyd Egyh Egyp Elba Elym Ethi Gara Geok Geor Glag Gong Gonm Goth Gran Grek Gujr Gukh Guru
  Hanb Hang Hani Hano Hans Hant Hatr Hebr Hira Hluw Hmng Hmnp Hrkt Hung Inds Ital Jamo Java Jpan
  Jurc Kali Kana Kawi Khar Khmr Khoj Kitl Kits Knda Kore Kpel Krai Kthi Lana Laoo Latf Latg Latn
  Leke Lepc Limb Lina Linb Lisu Loma Lyci Lydi Mahj Maka Mand Mani Marc Maya Medf Mend Merc Mero
  Mlym Modi Mong Moon Mroo Mtei Mult Mymr Nagm Nand Narb Nbat Newa Nkdb Nkgb Nkoo Nshu Ogam Olck
  Onao Orkh Orya Osge Osma Ougr Palm Pauc Pcun Pelm Perm Phag Phli Phlp Phlv Phnx Piqd Plrd Prti
  Psin Ranj Rjng Rohg Roro Runr Samr Sara Sarb Saur Sgnw Shaw Shrd Shui Sidd Sidt Sind Sinh Sogd
  Sogo Sora Soyo Sund Sunu Sylo Syrc Syre Syrj Syrn Tagb Takr Tale Talu Taml Tang Tavt Tayo Telu
  Teng Tfng Tglg Thaa Thai Tibt Tirh Tnsa Todr Tols Toto Tutg Ugar Vaii Visp Vith Wara Wcho Wole
  Xpeo Xsux Yezi Yiii Zanb Zinh Zmth Zsye Zsym Zxxx Zyyy Zzzz
`
  .trim()
  .split(/\s+/);

/** Lower-cased English name → code, the first code of a name winning. */
function byEnglishName(codes: Iterable<[code: string, key: string]>, type: 'language' | 'script') {
  const names = new Intl.DisplayNames(['en'], { type, fallback: 'none' });
  const map = new Map<string, string>();
  for (const [code, key] of codes) {
    const name = names.of(code)?.toLowerCase();
    if (name !== undefined && !map.has(name)) map.set(name, key);
  }
  return map;
}

const LANGUAGES_BY_NAME = byEnglishName(
  [
    // The reference knows the languages with two-letter codes; the others come after them.
    ...Object.entries(ISO_639_1_TO_2T),
    ...ISO_639_2T_CODES.map((code): [string, string] => [code, code]),
  ],
  'language',
);
const SCRIPTS_BY_NAME = byEnglishName(
  ISO_15924_CODES.map((code): [string, string] => [code, code]),
  'script',
);
const SCRIPTS_BY_CODE = new Map(ISO_15924_CODES.map((code) => [code.toLowerCase(), code]));

/** The ISO 639-2/T code of a language named in English ("Dutch" → `nld`); undefined for others. */
export function languageCodeOfName(name: string): string | undefined {
  return LANGUAGES_BY_NAME.get(name.toLowerCase());
}

/**
 * The ISO 15924 code of a script, named in English ("Latin" → `Latn`) or by its code in any case
 * (`latn` → `Latn`); undefined for anything else.
 */
export function scriptCodeOf(nameOrCode: string): string | undefined {
  const key = nameOrCode.toLowerCase();
  return SCRIPTS_BY_CODE.get(key) ?? SCRIPTS_BY_NAME.get(key);
}

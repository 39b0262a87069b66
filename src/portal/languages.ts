import { toLanguageCode } from '../items/languages';

/** The language the portal names things in when a request asks for none it can use. */
const DEFAULT_TAG = 'en';
/** Most language ranges read from one header: a real browser sends a handful. */
const MAX_RANGES = 32;

/**
 * What a request's `Accept-Language` asks for: its languages as description language codes, best
 * first, and the one tag (the best the portal can name countries in) that `Content-Language` states.
 */
export interface LanguagePreference {
  /** ISO 639-2/T codes, best first. */
  codes: readonly string[];
  /** A BCP 47 tag: the best range of the header that ICU can name regions in; `en` otherwise. */
  tag: string;
}

interface LanguageRange {
  tag: string;
  quality: number;
  position: number;
}

function ranges(header: string): LanguageRange[] {
  return header
    .split(',')
    .slice(0, MAX_RANGES)
    .flatMap((part, position): LanguageRange[] => {
      const [tag, ...parameters] = part.trim().split(';');
      if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag.trim())) return [];
      const qualityParameter = parameters
        .map((parameter) => parameter.trim())
        .find((p) => p.startsWith('q='));
      const quality = qualityParameter === undefined ? 1 : Number(qualityParameter.slice(2));
      return Number.isFinite(quality) && quality > 0 ? [{ tag: tag.trim(), quality, position }] : [];
    })
    .sort((a, b) => b.quality - a.quality || a.position - b.position);
}

function supportedTag(tag: string): string | undefined {
  try {
    return Intl.DisplayNames.supportedLocalesOf([tag])[0];
  } catch {
    return undefined;
  }
}

/** The preference an `Accept-Language` header states (RFC 9110 §12.5.4); none: English. */
export function languagePreference(header: string | undefined): LanguagePreference {
  const codes: string[] = [];
  let tag: string | undefined;
  for (const range of ranges(header ?? '')) {
    const code = toLanguageCode(range.tag.split('-')[0]);
    if (code === undefined) continue;
    if (!codes.includes(code)) codes.push(code);
    tag ??= supportedTag(range.tag);
  }
  return { codes, tag: tag ?? DEFAULT_TAG };
}

/** The language the portal falls back to after those a request prefers: English. */
const DEFAULT_LANGUAGE = 'eng';

/**
 * `items` in the preferred languages first, best first, then in English (the portal's default
 * language), then the rest by `keyOf`: an order that does not depend on how a store returns them.
 */
export function preferredFirst<T>(
  items: readonly T[],
  languageOf: (item: T) => string | undefined,
  keyOf: (item: T) => string,
  preference: LanguagePreference,
): T[] {
  const ranked = preference.codes.includes(DEFAULT_LANGUAGE)
    ? preference.codes
    : [...preference.codes, DEFAULT_LANGUAGE];
  const rank = (item: T) => {
    const index = ranked.indexOf(languageOf(item) ?? '');
    return index === -1 ? ranked.length : index;
  };
  return items
    .map((item) => ({ item, rank: rank(item), key: keyOf(item) }))
    .sort((a, b) => a.rank - b.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ item }) => item);
}

/** The name `names` gives a code; undefined for a code it cannot read (`Intl` throws for those). */
function nameOf(names: Intl.DisplayNames, code: string): string | undefined {
  try {
    return names.of(code);
  } catch {
    return undefined;
  }
}

/** Names of countries, languages and scripts in the preference's language. */
export class LocalNames {
  private readonly regions: Intl.DisplayNames;
  private readonly languages: Intl.DisplayNames;
  private readonly scripts: Intl.DisplayNames;

  constructor(tag: string) {
    this.regions = new Intl.DisplayNames([tag, DEFAULT_TAG], { type: 'region', fallback: 'none' });
    this.languages = new Intl.DisplayNames([tag, DEFAULT_TAG], { type: 'language', fallback: 'none' });
    this.scripts = new Intl.DisplayNames([tag, DEFAULT_TAG], { type: 'script', fallback: 'none' });
  }

  country(code: string): string | undefined {
    return nameOf(this.regions, code.toUpperCase());
  }

  language(code: string): string | undefined {
    return nameOf(this.languages, code);
  }

  /** An ISO 15924 code's name (`Cyrl` → Cyrillic). */
  script(code: string): string | undefined {
    return nameOf(this.scripts, code);
  }
}

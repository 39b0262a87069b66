import { Bundle, Props } from '../../items/bundle';
import { LanguagePreference, LocalNames, preferredFirst } from '../languages';

/**
 * Reading portal attributes from a bundle, for the type files of this folder. Descriptions come
 * best language first; attributes with no stored value are left out (lists are empty instead).
 */

/** How a request wants things named: its language preference and names in its language. */
export interface Localisation {
  preference: LanguagePreference;
  names: LocalNames;
}

/** A text property; a multivalued one is joined by line breaks rather than losing values. */
export function text(props: Props, ...keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = props[key];
    const joined = Array.isArray(value) ? value.map(String).join('\n') : value?.toString();
    if (joined !== undefined && joined !== '') return joined;
  }
  return undefined;
}

export function texts(props: Props, ...keys: readonly string[]): string[] {
  for (const key of keys) {
    const value = props[key];
    if (value !== undefined) return (Array.isArray(value) ? value : [value]).map(String);
  }
  return [];
}

/** The item's descriptions of `type`, in the languages the request prefers first (`preferredFirst`). */
export function descriptions(bundle: Bundle, type: string, localisation: Localisation): Bundle[] {
  const all = (bundle.relations.describes ?? []).filter((description) => description.type === type);
  return preferredFirst(
    all,
    ({ data }) => text(data, 'languageCode'),
    (description) => description.id,
    localisation.preference,
  );
}

/** Codes as names in the answer's language; a code with no name is kept as it is. */
export function named(codes: string[], name: (code: string) => string | undefined): string[] {
  return codes.map((code) => name(code) ?? code);
}

/** A description's language: its code and its name in the answer's language. */
export function languageAttributes(data: Props, localisation: Localisation): Record<string, unknown> {
  const languageCode = text(data, 'languageCode');
  return {
    languageCode,
    language: languageCode === undefined ? undefined : localisation.names.language(languageCode),
  };
}

import { Bundle, PropValue } from './bundle';

/**
 * What the full-text index holds for one item: names rank above the rest of the text. The fields
 * a query may name (`name:`, `identifier:`, `scopeAndContent:`) are indexed again on their own, for
 * those queries alone: they add nothing to what `names` and `text` find nor to how they rank.
 */
export interface SearchableText {
  names: string;
  text: string;
  /** The descriptions' names (`name:`). */
  titles: string;
  /** The item's identifier and other identifiers (`identifier:`). */
  identifiers: string;
  /** The descriptions' scope and content (`scopeAndContent:`). */
  scopeAndContent: string;
}

/** Item properties that name or identify the item. */
const ITEM_NAME_KEYS = ['identifier', 'otherIdentifiers', 'name'];
/** Item properties that identify the item. */
const ITEM_IDENTIFIER_KEYS = ['identifier', 'otherIdentifiers'];
/** Description properties that name the item. */
const DESCRIPTION_NAME_KEYS = ['name', 'parallelFormsOfName', 'otherFormsOfName'];
/** Description properties that are codes, not prose. */
const DESCRIPTION_CODE_KEYS = ['languageCode'];

/**
 * The item's names and identifiers, and the prose of its descriptions together with the names of
 * their access points and their addresses (so that a subject, place or city finds the item). Dates,
 * unknown properties and maintenance events are not text a reader searches for.
 */
export function searchableText(bundle: Bundle): SearchableText {
  const names: string[] = [];
  const text: string[] = [];
  const titles: string[] = [];
  const identifiers: string[] = [];
  const scopeAndContent: string[] = [];
  for (const key of ITEM_NAME_KEYS) collectStrings(bundle.data[key], names);
  for (const key of ITEM_IDENTIFIER_KEYS) collectStrings(bundle.data[key], identifiers);
  if (bundle.type === 'Country') collectStrings(bundle.data.name, titles);
  for (const description of bundle.relations.describes ?? []) {
    collectStrings(description.data.name, titles);
    collectStrings(description.data.scopeAndContent, scopeAndContent);
    for (const [key, value] of Object.entries(description.data)) {
      if (DESCRIPTION_NAME_KEYS.includes(key)) collectStrings(value, names);
      else if (!DESCRIPTION_CODE_KEYS.includes(key)) collectStrings(value, text);
    }
    for (const accessPoint of description.relations.relatesTo ?? [])
      collectStrings(accessPoint.data.name, text);
    for (const address of description.relations.hasAddress ?? []) {
      for (const value of Object.values(address.data)) collectStrings(value, text);
    }
  }
  return {
    names: names.join(' '),
    text: text.join(' '),
    titles: titles.join(' '),
    identifiers: identifiers.join(' '),
    scopeAndContent: scopeAndContent.join(' '),
  };
}

function collectStrings(value: PropValue | undefined, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const entry of value) if (typeof entry === 'string') into.push(entry);
}

import { hash } from 'node:crypto';
import { Bundle, PropValue, Scalar } from './bundle';
import { DependentRelation } from './item-types';
import { LANGUAGE_CODE, MANAGED_PREFIX, SOURCE_FILE_ID } from './ontology';

/**
 * Change detection as the reference's `Bundle.equals`: two bundles have the same content when
 * their types, their data (keys in any order, managed `_` keys left out) and their dependents
 * (in any order, recursively) are equal. Node ids play no part; the order of values inside a
 * list property does.
 */

/** A hash of the bundle's content: equal for bundles with the same content, different otherwise. */
export function itemHash(bundle: Bundle): string {
  return hash('sha256', canonicalForm(bundle), 'base64url');
}

export function sameContent(a: Bundle, b: Bundle): boolean {
  return canonicalForm(a) === canonicalForm(b);
}

/**
 * One unambiguous text per content. Every string is written with its length in front, so no
 * value can imitate a delimiter; dependents are sorted by their own canonical forms, which orders
 * a multiset. (Length prefixes cost far less than JSON-escaping each value.)
 */
function canonicalForm(bundle: Bundle): string {
  let form = lengthPrefixed(bundle.type);
  for (const key of Object.keys(bundle.data).sort()) {
    if (!key.startsWith(MANAGED_PREFIX)) {
      form += lengthPrefixed(key) + encodeValue(bundle.data[key]);
    }
  }
  for (const relation of Object.keys(bundle.relations).sort() as DependentRelation[]) {
    const dependents = bundle.relations[relation];
    if (dependents !== undefined && dependents.length > 0) {
      const forms = dependents.map((dependent) => lengthPrefixed(canonicalForm(dependent))).sort();
      form += `r${lengthPrefixed(relation)}${forms.length}:${forms.join('')}`;
    }
  }
  return form;
}

function encodeValue(value: PropValue): string {
  return Array.isArray(value) ? `a${value.length}:${value.map(encodeScalar).join('')}` : encodeScalar(value);
}

function encodeScalar(value: Scalar): string {
  switch (typeof value) {
    case 'string':
      return `s${lengthPrefixed(value)}`;
    case 'number':
      return `n${value};`;
    default:
      return value ? 't' : 'f';
  }
}

function lengthPrefixed(text: string): string {
  return `${text.length}:${text}`;
}

/**
 * The bundle to store when `incoming` re-imports an existing item, by the reference's rule
 * (`EadImporter.mergeDescriptions`): each incoming description replaces the existing
 * descriptions of the same type and language code — with `useSourceId`, only those that also
 * have the same source file id — and the other existing descriptions are kept. The item's data
 * and its other dependents are the incoming ones.
 */
export function mergeDescriptions(
  existing: Bundle,
  incoming: Bundle,
  options: { useSourceId: boolean },
): Bundle {
  const incomingDescriptions = incoming.relations.describes ?? [];
  const kept = (existing.relations.describes ?? []).filter(
    (description) => !incomingDescriptions.some((replacement) => replaces(replacement, description, options)),
  );
  return { ...incoming, relations: { ...incoming.relations, describes: [...kept, ...incomingDescriptions] } };
}

function replaces(incoming: Bundle, existing: Bundle, options: { useSourceId: boolean }): boolean {
  const sameLanguage =
    existing.data[LANGUAGE_CODE] !== undefined &&
    existing.data[LANGUAGE_CODE] === incoming.data[LANGUAGE_CODE];
  const sameSource =
    existing.data[SOURCE_FILE_ID] !== undefined &&
    existing.data[SOURCE_FILE_ID] === incoming.data[SOURCE_FILE_ID];
  return existing.type === incoming.type && sameLanguage && (!options.useSourceId || sameSource);
}

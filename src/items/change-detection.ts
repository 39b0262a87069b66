import { hash } from 'node:crypto';
import { Bundle, Scalar } from './bundle';
import { DependentRelation, ItemEdgeType } from './item-types';
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

/**
 * `itemHash` of the bundle together with `extra`, the canonical text of something else an equal
 * hash must vouch for (the edges an import writes with the item): one hash of both, cheaper than
 * two. `extra` must be unambiguous on its own.
 */
export function itemHashWith(bundle: Bundle, extra: string): string {
  return hash('sha256', `${canonicalForm(bundle)}${EXTRA_MARK}${extra}`, 'base64url');
}

/** Item-level edges by type, as an import writes them with an item. */
type Edges = Partial<Record<ItemEdgeType, string[]>>;

/**
 * The canonical text of the edges a write names (types and targets sorted, every string
 * length-prefixed), or '' when it names none.
 */
function edgesText(edges: Edges | undefined): string {
  if (edges === undefined) return '';
  let text = '';
  for (const type of Object.keys(edges).sort() as (keyof typeof edges)[]) {
    const targets = edges[type] ?? [];
    text += `${type.length}:${type}${targets.length}:`;
    for (const target of targets.length > 1 ? [...targets].sort() : targets)
      text += `${target.length}:${target}`;
  }
  return text;
}

/**
 * The hash stored with an item an import writes: the content's `itemHash`, extended by the edges
 * the write names, so that an equal hash means neither changed (a concept whose `narrower` edges
 * changed is an update even when its bundle is not).
 */
export function writeHash(bundle: Bundle, edges: Edges | undefined): string {
  const edgeText = edgesText(edges);
  return edgeText === '' ? itemHash(bundle) : itemHashWith(bundle, edgeText);
}

export function sameContent(a: Bundle, b: Bundle): boolean {
  return canonicalForm(a) === canonicalForm(b);
}

/** Starts the extra text: no part of a canonical form starts with it, so the two cannot blur. */
const EXTRA_MARK = 'x';

/**
 * One unambiguous text per content. Every string is written with its length in front, so no
 * value can imitate a delimiter; dependents are sorted by their own canonical forms, which orders
 * a multiset. (Length prefixes cost far less than JSON-escaping each value.) It is built for
 * every item an import reads, so it is kept to concatenation and plain loops.
 */
function canonicalForm(bundle: Bundle): string {
  let form = lengthPrefixed(bundle.type);
  const { data, relations } = bundle;
  for (const key of sortedKeys(data)) {
    if (key.startsWith(MANAGED_PREFIX)) continue;
    const value = data[key];
    form += lengthPrefixed(key);
    if (Array.isArray(value)) {
      form += `a${value.length}:`;
      for (const scalar of value) form += encodeScalar(scalar);
    } else {
      form += encodeScalar(value);
    }
  }
  for (const relation of sortedKeys(relations) as DependentRelation[]) {
    const dependents = relations[relation];
    if (dependents !== undefined && dependents.length > 0) {
      form += `r${lengthPrefixed(relation)}${dependents.length}:${dependentForms(dependents)}`;
    }
  }
  return form;
}

/** The dependents' canonical forms, each length-prefixed, in sorted order. */
function dependentForms(dependents: readonly Bundle[]): string {
  if (dependents.length === 1) return lengthPrefixed(canonicalForm(dependents[0]));
  return dependents
    .map((dependent) => lengthPrefixed(canonicalForm(dependent)))
    .sort()
    .join('');
}

/**
 * The object's keys in code unit order, as `sort()` orders them. An insertion sort: a bundle's
 * keys are few, and for so few it is faster than `sort()`.
 */
function sortedKeys(object: object): string[] {
  const keys = Object.keys(object);
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index];
    let before = index - 1;
    for (; before >= 0 && keys[before] > key; before--) keys[before + 1] = keys[before];
    keys[before + 1] = key;
  }
  return keys;
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
 * and its other dependents are the incoming ones. When no existing description is kept, the
 * result is `incoming` itself.
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
  // The incoming bundle itself when it keeps nothing: callers tell by identity that nothing merged.
  if (kept.length === 0) return incoming;
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

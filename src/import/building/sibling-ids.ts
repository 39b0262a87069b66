import type { FormatParameter } from '../formats/format-reader';
import { OTHER_IDENTIFIERS } from '../../items/ontology';
import { OBJECT_IDENTIFIER } from './raw-extraction';
import { RawNode } from './raw-node';

/**
 * What to do with a unit whose id an earlier unit of the same document already has (siblings with
 * one `unitid`, or ids that differ only in case, punctuation or white space): `error` refuses it
 * with its descendants; `position` keeps it, its local id suffixed with its occurrence (`C12_2`).
 */
export type DuplicateUnitIdPolicy = 'error' | 'position';

/** The query parameter that chooses it, for EAD, EAD sync and CSV units. */
export const DUPLICATE_UNITID = 'duplicate-unitid';

/** The `duplicate-unitid` parameter, as the formats that read units declare it. */
export const DUPLICATE_UNITID_PARAMETER: FormatParameter = {
  name: DUPLICATE_UNITID,
  description:
    'a unit whose id an earlier sibling of the same document has: error (default; refused with its descendants, naming both) or position (kept, suffixed _2, _3, … by occurrence)',
};
export const DUPLICATE_UNITID_POLICIES: readonly DuplicateUnitIdPolicy[] = ['error', 'position'];

/** A unit's local id and id among its siblings, or why it has none. */
export type SiblingIdentity = { localId: string; id: string } | { duplicate: string };

/**
 * The ids of one parent's child units (or of a document's top-level units), each with where the
 * unit that took it is, so that a unit repeating one is told apart or named with both places.
 */
export class SiblingIds {
  private readonly places = new Map<string, string>();

  /**
   * Gives the unit at `place` its id from `localId` (`idOf`), unless an earlier sibling has that
   * id: then, with `position`, the local id takes the first occurrence suffix (`_2`, `_3`, …)
   * whose id is free, which the same document read again gives it again; with `error`, the unit
   * gets no id and the reason names the id and both places.
   */
  identify(
    localId: string,
    place: string,
    idOf: (localId: string) => string,
    policy: DuplicateUnitIdPolicy,
  ): SiblingIdentity {
    const id = idOf(localId);
    const first = this.places.get(id);
    if (first === undefined) {
      this.places.set(id, place);
      return { localId, id };
    }
    if (policy === 'error') {
      return {
        duplicate: `${id} is already the id of ${first}; keep both with duplicate-unitid=position`,
      };
    }
    for (let occurrence = 2; ; occurrence++) {
      const suffixed = `${localId}_${occurrence}`;
      const suffixedId = idOf(suffixed);
      if (!this.places.has(suffixedId)) {
        this.places.set(suffixedId, place);
        return { localId: suffixed, id: suffixedId };
      }
    }
  }
}

/**
 * Makes `localId` the identifier of a unit's node; an identifier the source gave that it replaces
 * (blank, or repeated and suffixed) is kept first among the other identifiers.
 */
export function setLocalId(node: RawNode, localId: string): void {
  const given = node.first(OBJECT_IDENTIFIER);
  if (given !== undefined && given !== localId)
    node.set(OTHER_IDENTIFIERS, [given, ...node.all(OTHER_IDENTIFIERS)]);
  node.set(OBJECT_IDENTIFIER, localId);
}

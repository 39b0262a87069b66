import { hash } from 'node:crypto';
import { ItemWrite, StoredItem } from '../../graph/graph-store';
import { Bundle, Props } from '../../items/bundle';
import { ITEM_TYPES, ItemType } from '../../items/item-types';
import { LINK_DESCRIPTION, LINK_FIELD, LINK_TYPE } from '../../items/ontology';

/** The reference's link types (`LinkType`). */
export const LINK_TYPES = ['associative', 'hierarchical', 'temporal', 'identity', 'family', 'copy'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export function isLinkType(text: string): text is LinkType {
  return (LINK_TYPES as readonly string[]).includes(text);
}

/** Items a link may join: archival items, not links or users. */
const LINKABLE_TYPES: ReadonlySet<ItemType> = new Set(
  ITEM_TYPES.filter((type) => type !== 'Link' && type !== 'UserProfile'),
);

/**
 * Why item `id` cannot be an end of a link (`types` holds the types of the items that exist):
 * `not found`, or its type.
 */
export function unlinkableReason(id: string, types: ReadonlyMap<string, ItemType>): string | undefined {
  const type = types.get(id);
  if (type === undefined) return 'not found';
  if (!LINKABLE_TYPES.has(type)) return `is a ${type}, which cannot be linked`;
  return undefined;
}

/** What a link says: the two items it joins, the access point it was made from, and its data. */
export interface LinkSpec {
  ends: readonly [string, string];
  /** The access point the link was made from, on one of its ends. */
  accessPoint?: string;
  type: LinkType;
  field?: string;
  description?: string;
}

const LINK_ID_PREFIX = 'link-';
/** 128 bits of the hash, in hex: as long as a UUID. */
const LINK_ID_LENGTH = 32;

/**
 * A link's id, derived from what the link says, so that importing the same row again finds the
 * link it made instead of adding a copy (the reference gives every link a new random id). The
 * ends are sorted: a link has no direction.
 */
export function linkId(spec: LinkSpec): string {
  const key = [
    [...spec.ends].sort(),
    spec.accessPoint ?? '',
    spec.type,
    spec.field ?? '',
    spec.description ?? '',
  ];
  return LINK_ID_PREFIX + hash('sha256', JSON.stringify(key), 'hex').slice(0, LINK_ID_LENGTH);
}

function linkBundle(spec: LinkSpec): Bundle {
  const data: Props = { [LINK_TYPE]: spec.type };
  if (spec.field) data[LINK_FIELD] = spec.field;
  if (spec.description) data[LINK_DESCRIPTION] = spec.description;
  return { id: linkId(spec), type: 'Link', data, relations: {} };
}

/** A new link: its ends, the access points it is made from (its bodies) and the user who made it. */
export function newLinkWrite(
  spec: LinkSpec,
  bodies: readonly string[],
  linker: string,
): Omit<ItemWrite, 'hash'> {
  const edges: ItemWrite['edges'] = { hasLinkTarget: [...spec.ends], hasLinker: [linker] };
  if (bodies.length > 0) edges.hasLinkBody = [...bodies];
  return { bundle: linkBundle(spec), edges };
}

/**
 * An existing link with `bodies` among its bodies. Only the bodies are named, so its ends and
 * linker stay as they are; unchanged when it already has them all.
 */
export function linkWithBodies(link: StoredItem, bodies: readonly string[]): Omit<ItemWrite, 'hash'> {
  const hasLinkBody = [...new Set([...(link.edges.hasLinkBody ?? []), ...bodies])].sort();
  return { bundle: link.bundle, edges: { hasLinkBody } };
}

/** The ids of the access points on an item's descriptions. */
export function accessPointIds(item: Bundle): Set<string> {
  const descriptions = item.relations.describes ?? [];
  return new Set(
    descriptions.flatMap((description) => (description.relations.relatesTo ?? []).map((point) => point.id)),
  );
}

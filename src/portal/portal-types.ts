import { ItemType } from '../items/item-types';
import { PORTAL_TYPE_DEFINITIONS, PortalTypeDefinition } from './types';

/**
 * The item types the portal API serves and what follows from them, read from the registry of
 * `types/` (a file per type, a line each in `types/index.ts`).
 */
export type PortalType = (typeof PORTAL_TYPE_DEFINITIONS)[number]['type'];

export const PORTAL_TYPES: readonly PortalType[] = PORTAL_TYPE_DEFINITIONS.map(({ type }) => type);

const DEFINITIONS: ReadonlyMap<string, PortalTypeDefinition> = new Map<string, PortalTypeDefinition>(
  PORTAL_TYPE_DEFINITIONS.map((definition) => [definition.type, definition]),
);

/** What a search without `type` looks at: the reference's searchable types. */
export const SEARCHED_TYPES: readonly PortalType[] = PORTAL_TYPE_DEFINITIONS.filter(
  ({ searched }) => searched,
).map(({ type }) => type);

/** The scopes whose text search looks at their whole subtree (`PortalTypeDefinition.textSearchesSubtree`). */
export const SUBTREE_TEXT_SCOPES: readonly ItemType[] = PORTAL_TYPE_DEFINITIONS.filter(
  (definition: PortalTypeDefinition) => definition.textSearchesSubtree === true,
).map(({ type }) => type);

export function isPortalType(type: string | undefined): type is PortalType {
  return type !== undefined && DEFINITIONS.has(type);
}

/** The portal type `name` names, whatever its case (`type=repository`). */
export function portalTypeNamed(name: string): PortalType | undefined {
  const folded = name.trim().toLowerCase();
  return PORTAL_TYPES.find((type) => type.toLowerCase() === folded);
}

/** What the portal knows of a type it serves. */
export function portalTypeDefinition(type: PortalType): PortalTypeDefinition {
  return DEFINITIONS.get(type)!;
}

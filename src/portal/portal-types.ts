import { ItemType } from '../items/item-types';

/** The item types the portal API serves; every other item is invisible to it. */
export const PORTAL_TYPES = [
  'Country',
  'Repository',
  'DocumentaryUnit',
] as const satisfies readonly ItemType[];
export type PortalType = (typeof PORTAL_TYPES)[number];

export function isPortalType(type: string | undefined): type is PortalType {
  return (PORTAL_TYPES as readonly (string | undefined)[]).includes(type);
}

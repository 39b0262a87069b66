import { ItemType } from '../items/item-types';

/**
 * The item types the portal API serves, as the reference does; every other item is invisible to
 * it. Authority sets and vocabularies are served so that their agents' and concepts' links lead
 * somewhere.
 */
export const PORTAL_TYPES = [
  'Country',
  'Repository',
  'DocumentaryUnit',
  'HistoricalAgent',
  'CvocConcept',
  'AuthoritativeSet',
  'CvocVocabulary',
] as const satisfies readonly ItemType[];
export type PortalType = (typeof PORTAL_TYPES)[number];

/** What a search without `type` looks at: the reference's searchable types. */
export const SEARCHED_TYPES: readonly PortalType[] = [
  'Country',
  'Repository',
  'DocumentaryUnit',
  'HistoricalAgent',
  'CvocConcept',
];

export function isPortalType(type: string | undefined): type is PortalType {
  return (PORTAL_TYPES as readonly (string | undefined)[]).includes(type);
}

/** The portal type `name` names, whatever its case (`type=repository`). */
export function portalTypeNamed(name: string): PortalType | undefined {
  const folded = name.trim().toLowerCase();
  return PORTAL_TYPES.find((type) => type.toLowerCase() === folded);
}

/**
 * The graph model, the same on every store: node types, relationship types, and which relationships
 * tie dependent nodes (descriptions, dates, addresses, access points, …) to their owner.
 */

/** Main items: addressable by id, counted by imports, owning their dependent nodes. */
export const ITEM_TYPES = [
  'Country',
  'Repository',
  'DocumentaryUnit',
  'HistoricalAgent',
  'AuthoritativeSet',
  'CvocVocabulary',
  'CvocConcept',
  'Link',
  'UserProfile',
] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** Dependent nodes: they live and die with the item that owns them. */
export const DEPENDENT_TYPES = [
  'RepositoryDescription',
  'Address',
  'DocumentaryUnitDescription',
  'HistoricalAgentDescription',
  'CvocConceptDescription',
  'AccessPoint',
  'DatePeriod',
  'UnknownProperty',
  'MaintenanceEvent',
] as const;
export type DependentType = (typeof DEPENDENT_TYPES)[number];

export type NodeType = ItemType | DependentType;

/**
 * Relationships from a node to its dependents. `out` means the edge points from the owner to the
 * dependent (description -hasDate-> date); `in` means it points from the dependent to the owner
 * (description -describes-> unit), as in the reference graph.
 */
export const DEPENDENT_RELATIONS = {
  describes: 'in',
  hasAddress: 'out',
  hasDate: 'out',
  relatesTo: 'out',
  hasUnknownProperty: 'out',
  maintenance: 'in',
} as const;
export type DependentRelation = keyof typeof DEPENDENT_RELATIONS;

/** Relationships between main items (and from items to users and events). */
export const ITEM_EDGE_TYPES = [
  'childOf', // unit -> parent unit
  'heldBy', // top-level unit -> repository
  'hasCountry', // repository -> country
  'hasPermissionScope', // item -> the scope it was imported into
  'inAuthoritativeSet', // agent/concept -> authoritative set / vocabulary
  'narrower', // broader concept -> narrower concept
  'related', // concept -> related concept
  'hasLinkTarget', // link -> each end
  'hasLinkBody', // link -> access point
  'hasLinker', // link -> user
] as const;
export type ItemEdgeType = (typeof ITEM_EDGE_TYPES)[number];

/**
 * The edges that make one item the child of another for scoped search and scope membership:
 * a country's children are its repositories, a repository's its top-level units, a unit's its
 * child units, a set's or vocabulary's its agents or concepts.
 */
export const CHILD_EDGE_TYPES: readonly ItemEdgeType[] = [
  'childOf',
  'heldBy',
  'hasCountry',
  'inAuthoritativeSet',
];

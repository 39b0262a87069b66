import type { SchemaObject } from '@nestjs/swagger';
import type { FacetField, StoredItem } from '../../graph/graph-store';
import type { Bundle } from '../../items/bundle';
import type { ItemType } from '../../items/item-types';
import type { LocalNames } from '../languages';
import type { Localisation } from './attribute-values';

/**
 * What the portal knows of one of the item types it serves, in one place: how its resource
 * objects are written (attributes, relationships, links), their OpenAPI schema, how a search
 * scoped to it reaches below it, and the facets it names. Each type is a file of this folder,
 * listed once in `index.ts`; the serializer (`resources.ts`), the OpenAPI document
 * (`portal-schemas.openapi.ts`), the facets (`facets.ts`) and the service read it there.
 */
export interface PortalTypeDefinition<T extends ItemType = ItemType> {
  readonly type: T;
  /** Whether a search that names no `type` looks at it (the reference's searchable types). */
  readonly searched: boolean;
  /** Its resource object's attributes, from its bundle; those with no stored value left out. */
  readonly attributes: (bundle: Bundle, localisation: Localisation) => Record<string, unknown>;
  /**
   * The OpenAPI schema of those attributes, written out rather than derived from `attributes`, so
   * that a change to what the portal answers shows as a difference (test/openapi-answers.e2e-spec.ts).
   */
  readonly schema: SchemaObject;
  /** Its relationships by name, each to one item or to none (`null`), in the order written. */
  readonly relationships?: Readonly<Record<string, PortalRelationship>>;
  /** Whether its resources link the search of the items linked to it (`links.related`), as the reference's do. */
  readonly linksRelated?: boolean;
  /** Whether a fetch of it includes the items its relationships name (a unit's holder and parent). */
  readonly includesRelated?: boolean;
  /**
   * Whether a text search scoped to it looks at its whole subtree; browsing it (no `q`) lists its
   * direct children, as the reference does. Other scopes' children are all there is below them.
   */
  readonly textSearchesSubtree?: boolean;
  /** The search facets whose values are items or codes of this type (a holder, a country). */
  readonly facets?: readonly PortalFacet[];
}

/** The parts of an item a relationship is read from. */
export interface RelatedSource {
  stored: StoredItem;
  /** For a unit: the repository holding it, directly or through its ancestors. */
  holderId?: string;
}

export interface PortalRelationship {
  /** The type of the item it names. */
  readonly type: ItemType;
  /** What it is, for the OpenAPI document. */
  readonly description: string;
  /** The id of the item it names, if there is one. */
  readonly target: (item: RelatedSource) => string | undefined;
}

/** How a facet's values get names to show, in the answer's language. */
export interface FacetNaming {
  names: LocalNames;
  /** The name of an item the page read (a holder), if it has one. */
  itemName(id: string): string | undefined;
}

/** One facet of `meta.facets`, as the reference writes it. */
export interface PortalFacet {
  /** The parameter that filters by its values, and the store's facet it counts. */
  readonly field: FacetField;
  /** What it counts, to show. */
  readonly name: string;
  /** The field counted, as the reference names it. */
  readonly key: string;
  readonly valueName: (value: string, naming: FacetNaming) => string | undefined;
}

/** A type's definition, its type name kept as a literal for `PortalType`. */
export function portalType<const T extends ItemType>(
  definition: PortalTypeDefinition<T>,
): PortalTypeDefinition<T> {
  return definition;
}

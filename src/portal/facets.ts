import { FACET_FIELDS, FacetCount, FacetField } from '../graph/graph-store';
import { SearchParams } from './search-params';
import { FacetNaming, PORTAL_TYPE_DEFINITIONS, PortalFacet } from './types';

/** One facet value as the reference writes it: its value, a name to show, its count, whether it filters. */
interface FacetValue {
  value: string;
  name: string;
  count: number;
  applied: boolean;
}

/** One facet as the reference writes it in `meta.facets`. */
export interface FacetClass {
  /** The parameter that filters by this facet's values. */
  param: string;
  name: string;
  /** The field counted. */
  key: string;
  /** Number of values. */
  count: number;
  facets: FacetValue[];
}

/** The facets of every item, whatever its type; the others are their types' (a holder, a country). */
const GENERAL_FACETS: readonly PortalFacet[] = [
  { field: 'type', name: 'Type', key: 'type', valueName: (value) => value },
  {
    field: 'lang',
    name: 'Language',
    key: 'languageCode',
    valueName: (value, naming) => naming.names.language(value),
  },
];

const FACETS: ReadonlyMap<FacetField, PortalFacet> = new Map<FacetField, PortalFacet>(
  [...GENERAL_FACETS, ...PORTAL_TYPE_DEFINITIONS.flatMap((definition) => definition.facets ?? [])].map(
    (facet) => [facet.field, facet],
  ),
);
for (const field of FACET_FIELDS) {
  if (!FACETS.has(field)) {
    throw new Error(
      `The search facet "${field}" is neither a general facet nor a portal type's (src/portal/types)`,
    );
  }
}

/** The values that filter by `facet` in the request: `type` is a facet's filter too. */
function appliedValues(params: SearchParams, facet: FacetField): readonly string[] {
  return facet === 'type' ? params.types : (params.filters[facet] ?? []);
}

/** The facets the request asks for, in its order, each value named in the request's language. */
export function facetClasses(
  params: SearchParams,
  counts: Partial<Record<FacetField, FacetCount[]>>,
  naming: FacetNaming,
): FacetClass[] {
  return params.facets.map((field) => {
    const facet = FACETS.get(field)!;
    const applied = appliedValues(params, field);
    const values = (counts[field] ?? []).map(({ value, count }) => ({
      value,
      name: facet.valueName(value, naming) ?? value,
      count,
      applied: applied.includes(value),
    }));
    return { param: field, name: facet.name, key: facet.key, count: values.length, facets: values };
  });
}

import { FacetCount, FacetField } from '../graph/graph-store';
import { LocalNames } from './languages';
import { SearchParams } from './search-params';

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

const FACET_NAMES: Record<FacetField, { name: string; key: string }> = {
  type: { name: 'Type', key: 'type' },
  lang: { name: 'Language', key: 'languageCode' },
  country: { name: 'Country', key: 'countryCode' },
  holder: { name: 'Repository', key: 'holderId' },
};

/** The values that filter by `facet` in the request: `type` is a facet's filter too. */
function appliedValues(params: SearchParams, facet: FacetField): readonly string[] {
  return facet === 'type' ? params.types : (params.filters[facet] ?? []);
}

/** The facets the request asks for, in its order, each value named in the request's language. */
export function facetClasses(
  params: SearchParams,
  counts: Partial<Record<FacetField, FacetCount[]>>,
  names: LocalNames,
  holderName: (id: string) => string | undefined,
): FacetClass[] {
  const nameOf: Record<FacetField, (value: string) => string | undefined> = {
    type: (value) => value,
    lang: (value) => names.language(value),
    country: (value) => names.country(value),
    holder: holderName,
  };
  return params.facets.map((facet) => {
    const applied = appliedValues(params, facet);
    const values = (counts[facet] ?? []).map(({ value, count }) => ({
      value,
      name: nameOf[facet](value) ?? value,
      count,
      applied: applied.includes(value),
    }));
    return { param: facet, ...FACET_NAMES[facet], count: values.length, facets: values };
  });
}

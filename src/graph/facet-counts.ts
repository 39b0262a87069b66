import { FacetCount } from './graph-store';

/** Counts by value, most frequent first, then by value: how every store orders facet counts. */
export function countedValues(values: Iterable<string>): FacetCount[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

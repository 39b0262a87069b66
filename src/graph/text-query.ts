/**
 * A parsed search query, as the portal's `q` syntax states it (`src/portal/query-syntax.ts`), for
 * the stores to translate into their own full-text query language. Texts are as the user typed
 * them: each store splits and folds them into words as it does the text it indexes.
 */

/** The fields a query may name; a clause without one looks at every indexed field. */
export const QUERY_FIELDS = ['name', 'scopeAndContent', 'identifier'] as const;
export type QueryField = (typeof QUERY_FIELDS)[number];

export type TextQuery =
  /** Every word of `text` must start a word of the field (of any field without one). */
  | { kind: 'words'; text: string; field?: QueryField }
  /** The words of `text`, whole and in this order. */
  | { kind: 'phrase'; text: string; field?: QueryField }
  | { kind: 'and'; clauses: TextQuery[] }
  | { kind: 'or'; clauses: TextQuery[] }
  /** What `clause` does not match; only ever a clause of an `and` that has a clause without `not`. */
  | { kind: 'not'; clause: TextQuery };

/**
 * The clauses of an `and`, each translated (`translate` gives undefined for a clause without
 * words): those it must match and those it excludes. Undefined when none is left to match.
 */
export function andClauses<T>(
  clauses: readonly TextQuery[],
  translate: (clause: TextQuery) => T | undefined,
): { found: T[]; excluded: T[] } | undefined {
  const found = clauses.flatMap((clause) => (clause.kind === 'not' ? [] : (translate(clause) ?? [])));
  if (found.length === 0) return undefined;
  const excluded = clauses.flatMap((clause) =>
    clause.kind === 'not' ? (translate(clause.clause) ?? []) : [],
  );
  return { found, excluded };
}

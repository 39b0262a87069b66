import { andClauses, QueryField, TextQuery } from '../../text-query';

/** Runs of letters, digits and combining marks: what the unicode61 tokenizer keeps as words. */
const TERM = /[\p{L}\p{N}\p{M}]+/gu;

/** The full-text column each query field is indexed in on its own (schema.ts). */
const FIELD_COLUMNS: Record<QueryField, string> = {
  name: 'titles',
  identifier: 'identifiers',
  scopeAndContent: 'scope',
};

function fielded(field: QueryField | undefined, expression: string): string {
  return field === undefined ? expression : `${FIELD_COLUMNS[field]} : (${expression})`;
}

/**
 * The FTS5 query of a parsed query: each word quoted (so nothing in it is FTS5 syntax), a prefix
 * outside phrases; `and` of the clauses without `not`, then `NOT` each excluded one. Undefined
 * when it holds no word at all.
 */
export function ftsTextQuery(query: TextQuery): string | undefined {
  switch (query.kind) {
    case 'words': {
      const terms = query.text.match(TERM);
      return terms ? fielded(query.field, terms.map((term) => `"${term}"*`).join(' AND ')) : undefined;
    }
    case 'phrase': {
      const terms = query.text.match(TERM);
      return terms ? fielded(query.field, `"${terms.join(' ')}"`) : undefined;
    }
    case 'or': {
      const clauses = query.clauses.flatMap((clause) => ftsTextQuery(clause) ?? []);
      return clauses.length === 0 ? undefined : clauses.map((clause) => `(${clause})`).join(' OR ');
    }
    case 'and': {
      const clauses = andClauses(query.clauses, ftsTextQuery);
      if (clauses === undefined) return undefined;
      const found = clauses.found.map((clause) => `(${clause})`).join(' AND ');
      const excluded = clauses.excluded.map((clause) => ` NOT (${clause})`).join('');
      return excluded === '' ? found : `(${found})${excluded}`;
    }
    case 'not':
      // A lone exclusion finds nothing to exclude from; the parser never makes one.
      return undefined;
  }
}

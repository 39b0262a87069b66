import { andClauses, QueryField, TextQuery } from '../text-query';
import { IDENTIFIERS, NAMES, SCOPE_AND_CONTENT, TEXT, TITLES } from './graph-model';
import { searchWords } from './search-words';

/** A name match outweighs a text match, as in `fulltextQuery`. */
const NAME_BOOST = 2;

/** The node property each query field is indexed in on its own (graph-model.ts). */
const FIELD_PROPERTIES: Record<QueryField, string> = {
  name: TITLES,
  identifier: IDENTIFIERS,
  scopeAndContent: SCOPE_AND_CONTENT,
};

/** A term or phrase in the names and the text, or in the one field. */
function inFields(field: QueryField | undefined, term: string): string {
  if (field !== undefined) return `${FIELD_PROPERTIES[field]}:${term}`;
  return `(${NAMES}:${term}^${NAME_BOOST} OR ${TEXT}:${term})`;
}

/**
 * The Lucene query of a parsed query, over the words `search-words.ts` indexes: user text reaches
 * Lucene only as those words (letters and digits), so none of it is Lucene syntax. Undefined when
 * it holds no word at all.
 */
export function luceneTextQuery(query: TextQuery): string | undefined {
  switch (query.kind) {
    case 'words': {
      const words = searchWords(query.text);
      if (words.length === 0) return undefined;
      return `(${words.map((word) => inFields(query.field, `${word}*`)).join(' AND ')})`;
    }
    case 'phrase': {
      const words = searchWords(query.text);
      return words.length === 0 ? undefined : inFields(query.field, `"${words.join(' ')}"`);
    }
    case 'or': {
      const clauses = query.clauses.flatMap((clause) => luceneTextQuery(clause) ?? []);
      return clauses.length === 0 ? undefined : `(${clauses.join(' OR ')})`;
    }
    case 'and': {
      const clauses = andClauses(query.clauses, luceneTextQuery);
      if (clauses === undefined) return undefined;
      return `(${[...clauses.found, ...clauses.excluded.map((clause) => `NOT ${clause}`)].join(' AND ')})`;
    }
    case 'not':
      return undefined;
  }
}

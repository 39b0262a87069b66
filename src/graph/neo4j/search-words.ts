import { NAMES, TEXT } from './graph-model';

/**
 * Words for the full-text index, and the Lucene query that finds them. Both sides go through
 * `searchWords`, and the index only splits on white space, so what is indexed and what is asked
 * are the same words: lower-cased, accents removed, split at anything that is not a letter or digit.
 * A query is built from those words alone, so user text never reaches Lucene's query syntax.
 */

const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING_MARK = /\p{M}/gu;
/** A name match outweighs a text match. */
const NAME_BOOST = 2;
/** Keeps a pasted paragraph under Lucene's clause limit (1,024); 64 words is far past any real query. */
const MAX_QUERY_WORDS = 64;

export function searchWords(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(COMBINING_MARK, '').match(WORD) ?? [];
}

/** The value stored in an indexed property. */
export function indexedWords(text: string): string {
  return searchWords(text).join(' ');
}

/**
 * Every word must match the start of a word in the names or the text; a name match scores higher.
 * Prefix queries score by boost alone, so equally matching items tie exactly and fall back to id
 * order. Undefined when the text has no words: the search is then over everything.
 */
export function fulltextQuery(text: string | undefined): string | undefined {
  const words = [...new Set(searchWords(text ?? ''))].slice(0, MAX_QUERY_WORDS);
  if (words.length === 0) return undefined;
  return words.map((word) => `(${NAMES}:${word}*^${NAME_BOOST} OR ${TEXT}:${word}*)`).join(' AND ');
}

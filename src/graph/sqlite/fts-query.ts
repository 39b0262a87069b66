/** Runs of letters, digits and combining marks: what the unicode61 tokenizer keeps as words. */
const TERM = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Turns user text into an FTS5 query: every word must occur, as a word or the start of one. Words
 * are quoted, so FTS5 syntax in the text (quotes, `*`, `AND`, `NEAR`, `col:`, parentheses) is plain
 * text. `undefined` when the text has no words at all.
 */
export function toFtsQuery(text: string | undefined): string | undefined {
  const terms = text?.match(TERM);
  if (!terms) return undefined;
  return terms.map((term) => `"${term}"*`).join(' ');
}

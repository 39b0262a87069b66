/** Runs of letters, digits and combining marks: what the unicode61 tokenizer keeps as words. */
const TERM = /[\p{L}\p{N}\p{M}]+/gu;
/** Words that the tokenizer indexes as they are, lower-cased: nothing to fold but ASCII case. */
const ASCII_WORD = /^[A-Za-z0-9]+$/;

/**
 * The one indexed term that starts with a (lower-case ASCII) prefix, when exactly one does. An
 * FTS5 prefix query merges the doclists of every term in its range into a list of its own before
 * it can use any of them; an exact term is read in place (and skips to a rowid range), and ranks
 * the same, since it stands for the very same rows.
 */
export type SoleTerm = (prefix: string) => string | undefined;

/**
 * Turns user text into the phrases of an FTS5 query: every word must occur, as a word or the start
 * of one. Words are quoted, so FTS5 syntax in the text (quotes, `*`, `AND`, `NEAR`, `col:`,
 * parentheses) is plain text. `undefined` when the text has no words at all. With `soleTerm`, an
 * ASCII word that only one indexed term starts with is asked for as that term.
 */
export function ftsPhrases(text: string | undefined, soleTerm?: SoleTerm): string[] | undefined {
  const terms = text?.match(TERM);
  if (!terms) return undefined;
  return terms.map((term) => {
    const sole = soleTerm && ASCII_WORD.test(term) ? soleTerm(term.toLowerCase()) : undefined;
    return sole === undefined ? `"${term}"*` : `"${sole}"`;
  });
}

/** The FTS5 query of `ftsPhrases`: its phrases, all required. */
export function toFtsQuery(text: string | undefined, soleTerm?: SoleTerm): string | undefined {
  return ftsPhrases(text, soleTerm)?.join(' ');
}

/**
 * The half-open range of byte-ordered terms that start with an ASCII `prefix`: from the prefix to
 * the prefix with its last character's successor.
 */
export function termRange(prefix: string): { from: string; to: string } {
  const last = prefix.charCodeAt(prefix.length - 1);
  return { from: prefix, to: `${prefix.slice(0, -1)}${String.fromCharCode(last + 1)}` };
}

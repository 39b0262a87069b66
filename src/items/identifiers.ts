/**
 * The reference system's identifier rules (`Slugify`, `IdGeneratorUtils.joinPath`,
 * `DescriptionIdGenerator`), reproduced character for character so that ids agree with it.
 */

const SLUG_REPLACEMENT = '_';
const HIERARCHY_SEPARATOR = '-';
const DESCRIPTION_SEPARATOR = '.';

// The reference replaces punctuation (`\p{P}`, `_` included) and `= + < > ~ |` by `_` one by one,
// then runs of white space by `_`, then runs of `_` by one `_`: the same as replacing every run of
// them all by one `_`. Java's `\p{P}` is JavaScript's with the `u` flag (both by code point); Java's
// `\s` is ASCII white space only, where JavaScript's would also take U+00A0 and other spaces.
const REPLACED_RUN = /[\p{P}=+<>~|\t\n\v\f\r ]+/gu;
const EDGE_REPLACEMENT = /^_|_$/g;
const ALREADY_SLUG = /^[a-z0-9]*$/;

const CAPITAL_SIGMA = 'Σ';
// Java's `ConditionalSpecialCasing.isCased`: Lu, Ll, Lt and a fixed list of Other_Lowercase /
// Other_Uppercase ranges (narrower than Unicode's Cased).
const JAVA_CASED =
  /[\u0345\p{Lu}\p{Ll}\p{Lt}\u02B0-\u02B8\u02C0\u02C1\u02E0-\u02E4\u037A\u1D2C-\u1D61\u2160-\u217F\u24B6-\u24E9]/u;
// Words as Java's legacy (pre-ICU) word BreakIterator cuts the characters a slug can hold:
// letters (not ideographs or kana) and digits alternate freely, one `_` or soft hyphen joins
// letters (not digits), marks and other format characters are transparent, anything else stands
// alone. (Java's irregular handling of characters outside the BMP is not reproduced.)
const JAVA_TRANSPARENT = String.raw`(?:(?!\u00AD)[\p{Mn}\p{Me}\p{Cf}])*`;
const JAVA_LETTER = String.raw`(?![\u3005\u3041-\u309E\u30A1-\u30FE\u4E00-\u9FA5\uF900-\uFA2D])[\p{L}\p{Mc}]`;
const JAVA_LETTERS = `(?:${JAVA_LETTER}${JAVA_TRANSPARENT})+`;
const JAVA_LETTER_WORD = `${JAVA_LETTERS}(?:[_\u00AD]${JAVA_LETTERS})*`;
const JAVA_NUMBER = String.raw`(?:\p{N}${JAVA_TRANSPARENT})+`;
const JAVA_WORD = new RegExp(`(?:${JAVA_LETTER_WORD}|${JAVA_NUMBER})+|[^]${JAVA_TRANSPARENT}`, 'gu');

/**
 * A segment as the reference slugifies it: punctuation, `= + < > ~ |` and white space become `_`,
 * runs of `_` collapse to one, one leading and one trailing `_` go, then the text is lower-cased.
 */
export function slugify(text: string): string {
  if (ALREADY_SLUG.test(text)) {
    return text;
  }
  return javaLowerCase(text.replace(REPLACED_RUN, SLUG_REPLACEMENT).replace(EDGE_REPLACEMENT, ''));
}

/**
 * Java's `String.toLowerCase()`. It differs from JavaScript's only for the capital sigma, which
 * becomes final (`ς`) when a cased letter precedes it and none follows it within its word; Java's
 * words run across `_` between letters, so `ΟΔΟΣ_ΑΒ` becomes `οδοσ_αβ` (JavaScript: `οδος_αβ`).
 */
function javaLowerCase(text: string): string {
  if (!text.includes(CAPITAL_SIGMA)) {
    return text.toLowerCase();
  }
  return Array.from(text.matchAll(JAVA_WORD), ([word]) => lowerCaseJavaWord(word)).join('');
}

function lowerCaseJavaWord(word: string): string {
  if (!word.includes(CAPITAL_SIGMA)) {
    return word.toLowerCase();
  }
  const characters = Array.from(word);
  return characters
    .map((character, index) => {
      if (character !== CAPITAL_SIGMA) {
        return character.toLowerCase();
      }
      const casedBefore = characters.slice(0, index).some((other) => JAVA_CASED.test(other));
      const casedAfter = characters.slice(index + 1).some((other) => JAVA_CASED.test(other));
      return casedBefore && !casedAfter ? 'ς' : 'σ';
    })
    .join('');
}

/**
 * Whether an identifier can make a segment of an id: it is given and its slug is not empty. One
 * whose slug is empty (`---`, `...`, white space) counts as missing.
 */
export function isUsableIdentifier(identifier: string | undefined): identifier is string {
  return identifier !== undefined && slugify(identifier) !== '';
}

/** Thrown for an id that would have an empty segment: callers check `isUsableIdentifier` first. */
export class BlankSegmentError extends Error {
  constructor(segments: readonly string[]) {
    super(`An id cannot be made of ${JSON.stringify(segments)}: a segment slugifies to nothing`);
    this.name = 'BlankSegmentError';
  }
}

/**
 * An id from its path of identifiers (scopes, ancestors, the item's own). A segment that starts
 * with the previous raw segment, and is longer, loses that prefix (`C00002`, `C00002-2` →
 * `c00002-2`); the comparison is case-sensitive and made before slugifying. No segment is ever
 * empty: a blank identifier throws `BlankSegmentError`.
 */
export function joinPath(segments: readonly string[]): string {
  return segments
    .map((segment, index) => pathSegment(segment, segments[index - 1], segments))
    .join(HIERARCHY_SEPARATOR);
}

/**
 * The id of a child whose parent has the id `parentId` and the raw last segment `parentSegment`:
 * what `joinPath` gives the child's whole path, since it treats each segment by the one before it
 * only. Cheaper than `joinPath` when the parent's id is known.
 */
export function childId(parentId: string, parentSegment: string, segment: string): string {
  return parentId + HIERARCHY_SEPARATOR + pathSegment(segment, parentSegment, [parentId, segment]);
}

/**
 * A segment of an id as `joinPath` makes it, after the raw segment `previous`. Where losing the
 * prefix would leave nothing (`C1` then `C1-`) the whole segment is kept (`c1`): the reference
 * would give the id an empty last segment.
 */
function pathSegment(segment: string, previous: string | undefined, path: readonly string[]): string {
  const repeatsPrevious = previous !== undefined && segment !== previous && segment.startsWith(previous);
  const slug = repeatsPrevious ? slugify(segment.slice(previous.length)) : '';
  if (slug !== '') return slug;
  const whole = slugify(segment);
  if (whole === '') throw new BlankSegmentError(path);
  return whole;
}

/**
 * A description's id: `<itemId>.<languageCode>`, plus `-<slug(identifier)>` when the description
 * has an identifier whose slug is not blank.
 */
export function descriptionId(itemId: string, languageCode: string, identifier?: string): string {
  const identifierSlug = identifier === undefined ? '' : slugify(identifier);
  const base = isJavaBlank(identifierSlug)
    ? languageCode
    : languageCode + HIERARCHY_SEPARATOR + identifierSlug;
  return itemId + DESCRIPTION_SEPARATOR + base;
}

/** Whether Java's `String.trim()` leaves nothing: it strips every character up to U+0020. */
function isJavaBlank(text: string): boolean {
  return Array.from(text).every((character) => character <= ' ');
}

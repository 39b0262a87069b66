import { toLanguageCode } from '../../items/languages';

/**
 * The raw data a mapped XML handler collects for one item or sub-node (the reference's
 * `Map<String, Object>` graph): text values by field, several values of one field as a list, and
 * nested sub-nodes (access points, maintenance events) by field.
 */
export type RawValue = string | string[];

// Java's Character.isWhitespace: ASCII white space, the file/group/record/unit separators and the
// Unicode space separators except the non-breaking ones (U+00A0, U+2007, U+202F).
const JAVA_WHITESPACE_RUN =
  // eslint-disable-next-line no-control-regex -- Java's white space includes control characters
  /[\t\n\u000b\f\r\u001c-\u001f \u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]+/g;
const NO_BREAK_SPACE = /\u00a0/g;
// Java's String.trim: every character up to U+0020.
// eslint-disable-next-line no-control-regex -- as Java's trim, control characters included
const JAVA_TRIM = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;

// What normalising may change besides the ends: runs of spaces, and white space other than single
// spaces (no-break and other Unicode spaces, control characters). One search for both: with the
// literal alternative first, it costs little more than the class alone.
// eslint-disable-next-line no-control-regex -- control characters are among them
const MAY_CHANGE = /\x20\x20|[\u0000-\u001f\u00a0\u1680\u2000-\u200a\u2028\u2029\u205f\u3000]/;
const SPACE = 0x20;

/**
 * Commons Lang's `StringUtils.normalizeSpace`, which the reference applies to every value: runs
 * of white space become one space, a no-break space becomes a space, the ends are trimmed.
 */
export function normaliseSpace(text: string): string {
  if (text === '') return text;
  // Most values are normal already: a search spares the three replacements.
  if (text.charCodeAt(0) > SPACE && text.charCodeAt(text.length - 1) > SPACE && !MAY_CHANGE.test(text)) {
    return text;
  }
  return text.replace(JAVA_WHITESPACE_RUN, ' ').replace(NO_BREAK_SPACE, ' ').replace(JAVA_TRIM, '');
}

/** V8 copies the characters of a shorter slice rather than pointing into its parent. */
const SHORTEST_SLICE = 13;

/**
 * A copy of `text` that holds its characters itself. Text a parser reports is often a slice of
 * the chunk of input it parses: kept as it is, a value would keep that whole chunk (some 64K
 * characters) alive as long as itself, and so carry it into the old generation of the heap.
 */
function detached(text: string): string {
  if (text.length < SHORTEST_SLICE) return text;
  // Flattening the concatenation copies the characters; the slice then only drops the space.
  return ` ${text}`.slice(1);
}

/** Fields whose name starts with this hold language codes, kept as ISO 639-2/T codes. */
const LANGUAGE_FIELD_PREFIX = 'language';

const NO_SUB_NODES: ReadonlyMap<string, readonly RawNode[]> = new Map();

export class RawNode {
  readonly values = new Map<string, RawValue>();
  /** Most nodes have none: the map is made with the first. */
  private children: Map<string, RawNode[]> | undefined;

  /**
   * @param detachesText whether the node keeps a text it is given as a copy of its own (see
   *   `detached`); needless when its values are soon copied anyway, as when sent to another thread.
   */
  constructor(private readonly detachesText = true) {}

  /**
   * Adds a value to a field (the reference's `putPropertyInGraph`): white space is normalised,
   * an empty value is dropped, a second value turns the field into a list.
   */
  put(field: string, text: string | undefined): void {
    if (text !== undefined) this.putNormalised(field, normaliseSpace(text));
  }

  /** `put` for a value whose white space is already normalised. */
  putNormalised(field: string, text: string): void {
    if (text === '') return;
    const value = field.startsWith(LANGUAGE_FIELD_PREFIX)
      ? (toLanguageCode(text) ?? text)
      : this.detachesText
        ? detached(text)
        : text;
    const current = this.values.get(field);
    if (current === undefined) this.values.set(field, value);
    else if (typeof current === 'string') this.values.set(field, [current, value]);
    else current.push(value);
  }

  /** Sets a field to one value, replacing what it held. */
  set(field: string, value: RawValue): void {
    this.values.set(field, value);
  }

  /** The field's first value. */
  first(field: string): string | undefined {
    const value = this.values.get(field);
    return typeof value === 'string' ? value : value?.[0];
  }

  /** The field's values as a list. */
  all(field: string): string[] {
    const value = this.values.get(field);
    return value === undefined ? [] : typeof value === 'string' ? [value] : value;
  }

  get subNodes(): ReadonlyMap<string, readonly RawNode[]> {
    return this.children ?? NO_SUB_NODES;
  }

  addSubNode(field: string, node: RawNode): void {
    this.children ??= new Map();
    const nodes = this.children.get(field);
    if (nodes === undefined) this.children.set(field, [node]);
    else nodes.push(node);
  }

  removeSubNodes(field: string): void {
    this.children?.delete(field);
  }
}

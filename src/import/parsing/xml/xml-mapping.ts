import { PROTOTYPE_KEY } from '../../../items/bundle';
import { ImportInputError } from '../../formats/read-events';

/**
 * The reference system's `path=field` mappings (`XmlImportProperties`): which field an element's
 * text or an attribute's value goes to, looked up by the element's path.
 *
 * - `a/b/=field`: the text of a `b` element inside an `a` element. The shortest matching suffix
 *   of the element's path wins, whatever its depth in the document.
 * - `@attr=alias` declares an attribute; `a/b/@alias=field` then maps `attr` on a `b` inside an `a`.
 * - `a/b/@alias$value=field`: when `attr` has that value, the element's text goes to `field`.
 */

/** Parses the `java.util.Properties` text format: comments, continuations, escapes, last key wins. */
export function parseProperties(text: string): Map<string, string> {
  const properties = new Map<string, string>();
  const lines = text.split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index++) {
    let line = trimLeadingWhitespace(lines[index]);
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    while (continuesOnNextLine(line)) {
      line = line.slice(0, -1);
      if (index + 1 < lines.length) line += trimLeadingWhitespace(lines[++index]);
    }
    const [key, value] = splitKeyValue(line);
    properties.set(unescape(key), unescape(value));
  }
  return properties;
}

const PROPERTIES_WHITESPACE = new Set([' ', '\t', '\f']);

function trimLeadingWhitespace(line: string): string {
  let start = 0;
  while (start < line.length && PROPERTIES_WHITESPACE.has(line[start])) start++;
  return line.slice(start);
}

function continuesOnNextLine(line: string): boolean {
  let backslashes = 0;
  for (let index = line.length - 1; index >= 0 && line[index] === '\\'; index--) backslashes++;
  return backslashes % 2 === 1;
}

function splitKeyValue(line: string): [string, string] {
  let index = 0;
  while (index < line.length) {
    const character = line[index];
    if (character === '\\') index += 2;
    else if (character === '=' || character === ':' || PROPERTIES_WHITESPACE.has(character)) break;
    else index++;
  }
  const key = line.slice(0, index);
  let valueStart = index;
  while (valueStart < line.length && PROPERTIES_WHITESPACE.has(line[valueStart])) valueStart++;
  if (line[valueStart] === '=' || line[valueStart] === ':') {
    valueStart++;
    while (valueStart < line.length && PROPERTIES_WHITESPACE.has(line[valueStart])) valueStart++;
  }
  return [key, line.slice(valueStart)];
}

const ESCAPES: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', f: '\f' };

function unescape(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escaped: string) =>
    escaped.length === 5
      ? String.fromCharCode(parseInt(escaped.slice(1), 16))
      : (ESCAPES[escaped] ?? escaped),
  );
}

/** A suffix tree over element paths, innermost element first. */
interface PathNode {
  field?: string;
  parents?: Map<string, PathNode>;
}

function insert(root: PathNode, segments: readonly string[], field: string): void {
  let node = root;
  for (let index = segments.length - 1; index >= 0; index--) {
    node.parents ??= new Map();
    let parent = node.parents.get(segments[index]);
    if (parent === undefined) {
      parent = {};
      node.parents.set(segments[index], parent);
    }
    node = parent;
  }
  node.field = field;
}

/** The field of the shortest suffix of `path` (root first) that the tree maps. */
function lookup(root: PathNode, path: readonly string[]): string | undefined {
  let node: PathNode | undefined = root;
  for (let index = path.length - 1; index >= 0; index--) {
    node = node.parents?.get(path[index]);
    if (node === undefined) return undefined;
    if (node.field !== undefined) return node.field;
  }
  return undefined;
}

export class XmlMapping {
  private readonly elements: PathNode = {};
  /** By attribute alias, or alias `$` value. */
  private readonly attributes = new Map<string, PathNode>();
  /** Attribute name → alias (the `@attr=alias` lines). */
  private readonly aliases = new Map<string, string>();
  /** Aliases with a mapping by value (`@alias$value=field`): only they need a lookup by value. */
  private readonly aliasesByValue = new Set<string>();

  constructor(properties: ReadonlyMap<string, string>) {
    for (const [key, field] of properties) this.add(key, field);
  }

  static parse(text: string): XmlMapping {
    return new XmlMapping(parseProperties(text));
  }

  /** The mapping the `properties` parameter gives, else the format's default one. */
  static fromParameter(properties: string | undefined, fallback: XmlMapping): XmlMapping {
    return properties === undefined ? fallback : XmlMapping.parse(properties);
  }

  /** The field the text of the innermost element of `path` (root first) maps to, if any. */
  elementField(path: readonly string[]): string | undefined {
    return lookup(this.elements, path);
  }

  /** The alias an attribute is declared under (`@attr=alias`), if it is. */
  attributeAlias(attribute: string): string | undefined {
    return this.aliases.get(attribute);
  }

  /** The field an attribute of the innermost element maps to, by its alias (and value). */
  attributeField(path: readonly string[], alias: string, value?: string): string | undefined {
    if (value !== undefined && !this.aliasesByValue.has(alias)) return undefined;
    const tree = this.attributes.get(value === undefined ? alias : `${alias}$${value}`);
    return tree === undefined ? undefined : lookup(tree, path);
  }

  private add(key: string, field: string): void {
    if (field === PROTOTYPE_KEY) {
      throw new ImportInputError(`properties: ${key}=${field}: no field may be called ${PROTOTYPE_KEY}`);
    }
    if (key.startsWith('@')) {
      this.aliases.set(key.slice(1), field);
      return;
    }
    const attribute = key.lastIndexOf('/@');
    if (attribute !== -1) {
      const name = key.slice(attribute + 2);
      const valueMark = name.indexOf('$');
      if (valueMark !== -1) this.aliasesByValue.add(name.slice(0, valueMark));
      let tree = this.attributes.get(name);
      if (tree === undefined) {
        tree = {};
        this.attributes.set(name, tree);
      }
      insert(tree, key.slice(0, attribute).split('/'), field);
    } else if (key.endsWith('/')) {
      insert(this.elements, key.slice(0, -1).split('/'), field);
    }
    // Other keys never match a path (the reference looks paths up with a trailing '/').
  }
}

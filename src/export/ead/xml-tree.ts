/**
 * A small element tree for one unit's own content, written as markup. A unit's fields land in it
 * by element path, so that fields sharing a path prefix (`did/physdesc/extent` and an unmapped
 * `did/physdesc/dimensions`) share their elements, as in the finding aid they came from.
 */
export interface XmlElement {
  name: string;
  attributes: [string, string][];
  text?: string;
  children: XmlElement[];
}

export function element(name: string, attributes: [string, string][] = [], text?: string): XmlElement {
  return text === undefined ? { name, attributes, children: [] } : { name, attributes, text, children: [] };
}

/** Elements a unit has one of: a field's values never spread over several. */
const SINGLE = new Set(['did', 'dsc']);
const NAMES = ['subject', 'persname', 'famname', 'corpname', 'geogname', 'genreform', 'name'];
/** Elements that repeat inside one parent where several follow each other (terms, lines), by parent. */
const TOGETHER: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['controlaccess', new Set(NAMES)],
  ['origination', new Set(NAMES)],
  ['namegrp', new Set(NAMES)],
  ['address', new Set(['addressline'])],
  ['physdesc', new Set(['extent', 'dimensions', 'physfacet'])],
  ['langmaterial', new Set(['language'])],
  ['list', new Set(['item'])],
  ['eventgrp', new Set(['event'])],
  ['p', new Set(['bibref'])],
]);
/** Children of which an element may have one or the other, not both (`chronitem`). */
const ALTERNATIVES: Readonly<Record<string, string>> = { event: 'eventgrp', eventgrp: 'event' };

/** Whether a field's successive values go to successive `leaf`s of one `parent`. */
function repeatsInParent(parent: string, leaf: string): boolean {
  return SINGLE.has(parent) || TOGETHER.get(parent)?.has(leaf) === true;
}

/** Whether `element` has no `leaf` yet, nor what excludes one. */
function lacks(element: XmlElement, leaf: string): boolean {
  const other = ALTERNATIVES[leaf];
  return !element.children.some((child) => child.name === leaf || child.name === other);
}

/**
 * The element that the `occurrence`th (0-based) value of a field at `path` below `root` goes to,
 * made as needed. Terms and lines follow each other in one parent (`controlaccess` with two
 * `subject`, values by occurrence); other values each go to the first occurrence of the parent
 * that has no such child yet (two `scopecontent` of one `p` each, `chronitem`s of one `date` and
 * one `event` each), as the EAD schemas want them, and as a block's `head` and paragraphs came.
 * Other ancestors are the first of their name.
 */
export function place(root: XmlElement, path: readonly string[], occurrence = 0): XmlElement {
  const parent = path.length - 2;
  const leaf = path[path.length - 1];
  const spreadsParent = parent >= 0 && !repeatsInParent(path[parent], leaf);
  let target = root;
  for (let depth = 0; depth < path.length; depth++) {
    if (depth === parent && spreadsParent) {
      const name = path[depth];
      const free = target.children.find((child) => child.name === name && lacks(child, leaf));
      target = free ?? nth(target, name, target.children.filter((child) => child.name === name).length);
    } else {
      target = nth(target, path[depth], depth === path.length - 1 && !spreadsParent ? occurrence : 0);
    }
  }
  return target;
}

/** The `wanted`th (0-based) child of `parent` named `name`, made (with any before it) if missing. */
function nth(parent: XmlElement, name: string, wanted: number): XmlElement {
  let seen = -1;
  for (const child of parent.children) {
    if (child.name === name && ++seen === wanted) return child;
  }
  let made: XmlElement;
  do {
    made = element(name);
    parent.children.push(made);
  } while (++seen < wanted);
  return made;
}

/** Sets an attribute, replacing one of that name. */
export function setAttribute(target: XmlElement, name: string, value: string): void {
  const existing = target.attributes.find(([attribute]) => attribute === name);
  if (existing === undefined) target.attributes.push([name, value]);
  else existing[1] = value;
}

// Characters XML 1.0 cannot carry at all, even escaped: dropped rather than making the document unreadable.
// eslint-disable-next-line no-control-regex -- these are the control characters XML forbids
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function escapeText(text: string): string {
  return text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(text: string): string {
  return escapeText(text)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

export function startTag(name: string, attributes: readonly (readonly [string, string])[] = []): string {
  let tag = `<${name}`;
  for (const [attribute, value] of attributes) tag += ` ${attribute}="${escapeAttribute(value)}"`;
  return `${tag}>`;
}

/** `<name attributes>text</name>`, or `<name attributes/>` without text. */
export function textElement(
  name: string,
  text: string | undefined,
  attributes: readonly (readonly [string, string])[] = [],
): string {
  const start = startTag(name, attributes);
  if (text === undefined || text === '') return `${start.slice(0, -1)}/>`;
  return `${start}${escapeText(text)}</${name}>`;
}

/** The element's markup, indented by `depth`, its own text first, then its children. */
export function markup(target: XmlElement, depth: number): string {
  const indent = '  '.repeat(depth);
  if (target.children.length === 0)
    return `${indent}${textElement(target.name, target.text, target.attributes)}\n`;
  let text = `${indent}${startTag(target.name, target.attributes)}`;
  if (target.text !== undefined) text += escapeText(target.text);
  text += '\n';
  for (const child of target.children) text += markup(child, depth + 1);
  return `${text}${indent}</${target.name}>\n`;
}

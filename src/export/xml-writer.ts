import { Bundle, PropValue, Props } from '../items/bundle';
import { CARRIED_FIELD, CARRIED_NODE, GENERATED } from '../import/parsing/xml/carried-fields';

export type Attributes = Record<string, string | undefined>;

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

function attributeText(attributes: Attributes | undefined): string {
  if (attributes === undefined) return '';
  return Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
}

/**
 * An indented XML document, element by element; one record's document is small enough to build
 * whole. A fragment (`depth` > 0) is built apart and then `append`ed, for a part written before
 * what it depends on is known.
 */
export class XmlBuilder {
  private readonly parts: string[];
  private readonly open: string[] = [];

  constructor(private readonly depth = 0) {
    this.parts = depth === 0 ? ['<?xml version="1.0" encoding="UTF-8"?>\n'] : [];
  }

  private indent(): string {
    return '  '.repeat(this.depth + this.open.length);
  }

  /** A fragment built at this builder's current depth. */
  append(fragment: XmlBuilder): this {
    this.parts.push(fragment.toString());
    return this;
  }

  start(name: string, attributes?: Attributes): this {
    this.parts.push(`${this.indent()}<${name}${attributeText(attributes)}>\n`);
    this.open.push(name);
    return this;
  }

  end(): this {
    const name = this.open.pop();
    if (name === undefined) throw new Error('XmlBuilder: no element is open');
    this.parts.push(`${this.indent()}</${name}>\n`);
    return this;
  }

  /** An element with text only (empty when `text` is undefined or empty). */
  leaf(name: string, text?: string, attributes?: Attributes): this {
    const body = text === undefined || text === '' ? '' : escapeText(text);
    const tag = `${name}${attributeText(attributes)}`;
    this.parts.push(`${this.indent()}${body === '' ? `<${tag}/>` : `<${tag}>${body}</${name}>`}\n`);
    return this;
  }

  /** `start`, what `content` writes, `end`. */
  element(name: string, attributes: Attributes | undefined, content: () => void): this {
    this.start(name, attributes);
    content();
    return this.end();
  }

  toString(): string {
    if (this.open.length > 0) throw new Error(`XmlBuilder: ${this.open.join('/')} left open`);
    return this.parts.join('');
  }
}

/** How the reference flattens several values of a single-valued field into one. */
const FLATTENED = '\n\n';

/** A stored value as the texts an import reads back into it. */
export function textsOf(value: PropValue | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map(String);
  const text = String(value);
  return text.includes(FLATTENED) ? text.split(FLATTENED) : [text];
}

/**
 * The raw fields an import made a stored record from (field → texts), taken one by one as the
 * writer puts them in elements; what is left is carried (`Carriers`).
 */
export class RawFields {
  private readonly fields = new Map<string, string[]>();

  set(field: string, value: PropValue | undefined): void {
    const texts = textsOf(value).filter((text) => text !== '');
    if (texts.length > 0) this.fields.set(field, texts);
  }

  /** The texts of a field, which the writer then owns. */
  take(field: string): string[] {
    const texts = this.fields.get(field) ?? [];
    this.fields.delete(field);
    return texts;
  }

  /** The single text of a field; a field of several texts is left to be carried. */
  takeOne(field: string): string | undefined {
    const texts = this.fields.get(field);
    if (texts === undefined || texts.length !== 1) return undefined;
    this.fields.delete(field);
    return texts[0];
  }

  has(field: string): boolean {
    return this.fields.has(field);
  }

  rest(): [string, string[]][] {
    return [...this.fields];
  }
}

/** The `localControl` carriers of an export (see `carried-fields.ts` in the XML import). */
export class Carriers {
  private readonly entries: [string, string][] = [];

  field(field: string, texts: readonly string[]): void {
    for (const text of texts) this.entries.push([`${CARRIED_FIELD}${field}`, text]);
  }

  /** Every sub-node of `field`, whole: the import puts them back in this order. */
  nodes(field: string, bundles: readonly Bundle[]): void {
    bundles.forEach((bundle, index) => {
      for (const [key, value] of Object.entries(bundle.data)) {
        for (const text of textsOf(value)) {
          this.entries.push([`${CARRIED_NODE}${field}:${index}:${key}`, text]);
        }
      }
    });
  }

  /** A raw field (or sub-node field) the document holds only because its schema asks for it. */
  generated(field: string): void {
    this.entries.push([GENERATED, field]);
  }

  /** Every raw field left in `fields`. */
  rest(fields: RawFields): void {
    for (const [field, texts] of fields.rest()) this.field(field, texts);
  }

  /** As `localControl` elements of one `term` each (EAC-CPF). */
  write(xml: XmlBuilder): void {
    for (const [localType, text] of this.entries) {
      xml.element('localControl', { localType }, () => xml.leaf('term', text));
    }
  }

  /** As `otherRecordId` elements (EAG 2012, whose `localControl` terms are from a closed list). */
  writeAsRecordIds(xml: XmlBuilder): void {
    for (const [localType, text] of this.entries) xml.leaf('otherRecordId', text, { localType });
  }
}

/** The data of one dependent relation's bundles. */
export function dependentsOf(bundle: Bundle, relation: keyof Bundle['relations']): Bundle[] {
  return bundle.relations[relation] ?? [];
}

/** Data values, for lookups. */
export function dataText(data: Props, key: string): string | undefined {
  const value = data[key];
  return value === undefined || Array.isArray(value) ? undefined : String(value);
}

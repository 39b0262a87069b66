import { LANGUAGE_CODE } from '../../../items/ontology';
import { normaliseSpace, RawNode } from './raw-node';
import { XmlMapping } from './xml-mapping';
import { XmlContentHandler, XmlLocator } from './xml-parser';

/** Whether the text is only the white space XML allows between elements (space, tab, CR, LF). */
function isBlank(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code !== 0x20 && code !== 0x0a && code !== 0x09 && code !== 0x0d) return false;
  }
  return true;
}

/** Unmapped fields are kept under this prefix and the element's path (`UNKNOWN_ead_archdesc_…_`). */
export const UNKNOWN_PREFIX = 'UNKNOWN_';

/** An open element, as a mapped handler tracks it; valid during the call it is passed to only. */
export interface OpenElement {
  name: string;
  /** The field its text maps to, or undefined when the mapping has none. */
  field: string | undefined;
  /** Its own text (not its children's), as read so far, blank runs between children as one space. */
  text: string;
  /** Whether blank text followed the text so far (written as a space if more text follows). */
  spaceAfter: boolean;
  /** Whether it opened a sub-node that collects its content. */
  subNode: boolean;
  /** The field an attribute value (`@alias$value=field`) redirects its text to. */
  textField?: string;
}

/**
 * The reference's `SaxXmlHandler`: builds raw nodes from a document by its `path=field` mapping.
 * Each element's own text goes to its mapped field in the innermost open node, or, unmapped, to
 * an `UNKNOWN_` field named after its path; mapped attributes go there too. Elements for which
 * `opensSubNode` is true collect their content in a new node, which subclasses place on close.
 */
export abstract class MappedXmlHandler<T> implements XmlContentHandler<T> {
  /** Names of the open elements, root first. */
  protected readonly path: string[] = [];
  /** The open elements are the first `path.length`; the others are kept for reuse. */
  private readonly openElements: OpenElement[] = [];
  /** The open nodes, the document's root node first. */
  protected readonly nodes: RawNode[] = [new RawNode()];
  private events: T[] = [];

  protected constructor(
    /** Replaceable until the root element starts, for formats whose mapping depends on the root. */
    protected mapping: XmlMapping,
    protected readonly locator: XmlLocator,
  ) {}

  protected abstract opensSubNode(name: string, field: string | undefined): boolean;

  /** Called after an element's start is processed (its node opened, its attributes mapped). */
  protected abstract elementStarted(element: OpenElement, attributes: Readonly<Record<string, string>>): void;

  /** Called after an element's text is stored, while it is still the innermost element of `path`. */
  protected abstract elementEnded(element: OpenElement): void;

  protected get currentNode(): RawNode {
    return this.nodes[this.nodes.length - 1];
  }

  protected emit(event: T): void {
    this.events.push(event);
  }

  drain(): T[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  startElement(name: string, attributes: Readonly<Record<string, string>>, _qualifiedName?: string): void {
    const element = this.openElement(this.path.length);
    this.path.push(name);
    element.name = name;
    element.field = this.mapping.elementField(this.path);
    element.subNode = this.opensSubNode(name, element.field);
    if (element.subNode) this.nodes.push(new RawNode());
    this.mapAttributes(element, attributes);
    this.elementStarted(element, attributes);
  }

  text(text: string): void {
    const open = this.path.length;
    if (open === 0) return;
    const element = this.openElements[open - 1];
    // Values are normalised, so blank text (mostly the indentation around child elements) only
    // matters as a separator: keeping one space for it spares building and scanning long blank
    // texts for every element that has children.
    if (isBlank(text)) {
      element.spaceAfter = element.text !== '';
    } else {
      element.text += element.spaceAfter ? ` ${text}` : text;
      element.spaceAfter = false;
    }
  }

  endElement(): void {
    const open = this.path.length;
    if (open === 0) return;
    const element = this.openElements[open - 1];
    const text = normaliseSpace(element.text);
    if (text !== '') {
      this.currentNode.putNormalised(element.textField ?? element.field ?? this.unknownField(), text);
    }
    this.elementEnded(element);
    this.path.pop();
  }

  /** A cleared element record for the given depth: one per depth is reused, not one per element. */
  private openElement(depth: number): OpenElement {
    let element = this.openElements[depth];
    if (element === undefined) {
      element = { name: '', field: undefined, text: '', spaceAfter: false, subNode: false };
      this.openElements.push(element);
    }
    element.text = '';
    element.spaceAfter = false;
    element.textField = undefined;
    return element;
  }

  /** Closes the innermost sub-node and returns it. */
  protected closeSubNode(): RawNode {
    const node = this.nodes.pop();
    if (node === undefined || this.nodes.length === 0) throw new Error('No sub-node is open');
    return node;
  }

  private unknownField(): string {
    return `${UNKNOWN_PREFIX}${this.path.join('_')}_`;
  }

  private mapAttributes(element: OpenElement, attributes: Readonly<Record<string, string>>): void {
    for (const qualifiedName in attributes) {
      const alias = this.mapping.attributeAlias(qualifiedName.slice(qualifiedName.indexOf(':') + 1));
      // As in the reference, an attribute aliased to the description language is not a field.
      if (alias === undefined || alias === LANGUAGE_CODE) continue;
      const value = attributes[qualifiedName];
      const field = this.mapping.attributeField(this.path, alias);
      if (field !== undefined) {
        this.currentNode.put(field, value);
      } else {
        element.textField ??= this.mapping.attributeField(this.path, alias, value);
      }
    }
  }
}

import { LANGUAGE_CODE } from '../../../items/ontology';
import { normaliseSpace, RawNode } from '../../building/raw-node';
import { XmlMapping } from './xml-mapping';
import { XmlContentHandler, XmlLocator } from './xml-parser';

const NOT_XML_SPACE = /[^ \t\n\r]/;
const SPACE = 0x20;

/** Whether the text is only the white space XML allows between elements (space, tab, CR, LF). */
function isBlank(text: string): boolean {
  // Most text that is not blank starts with a letter, which tells without a search. A search
  // decides blank text (indentation) faster than a loop over its characters.
  if (text.charCodeAt(0) > SPACE) return false;
  return !NOT_XML_SPACE.test(text);
}

/** Unmapped fields are kept under this prefix and the element's path (`UNKNOWN_ead_archdesc_…_`). */
export const UNKNOWN_PREFIX = 'UNKNOWN_';

/** An open element, as a mapped handler tracks it; valid during the call it is passed to only. */
export interface OpenElement<R = never> {
  name: string;
  /** What the handler made of the element's name (`elementRole`), once per element path. */
  role: R | undefined;
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

/** Element paths worked out per document at most; beyond, paths are worked out each time they occur. */
const MAX_ELEMENT_PATHS = 10_000;

/**
 * An element path of the document (`ead/archdesc/did/unitid`) with what the mapping says of it:
 * worked out once per distinct path, not once per element, so that reading an element costs a
 * map lookup rather than a walk of the mapping's trees and a field name built from its path.
 */
class ElementPath<R> {
  readonly children = new Map<string, ElementPath<R>>();
  /** Its attributes' fields by alias; null where the mapping has none. */
  readonly attributeFields = new Map<string, string | null>();
  /** The field its text goes to when it has no mapped field, named when first needed. */
  unknownField: string | undefined;
  /**
   * The child that came first, and the sibling that came after this one, the last time: documents
   * repeat their structure, so comparing the name with these spares hashing it for a map lookup.
   */
  firstChild: ElementPath<R> | undefined;
  nextSibling: ElementPath<R> | undefined;

  constructor(
    readonly name: string,
    readonly field: string | undefined,
    readonly subNode: boolean,
    readonly role: R | undefined,
  ) {}
}

/** An open element as the handler keeps it: with its path. */
interface OpenRecord<R> extends OpenElement<R> {
  path: ElementPath<R>;
}

/**
 * Builds raw nodes from a document by its `path=field` mapping.
 * Each element's own text goes to its mapped field in the innermost open node, or, unmapped, to
 * an `UNKNOWN_` field named after its path; mapped attributes go there too. Elements for which
 * `opensSubNode` is true collect their content in a new node, which subclasses place on close.
 */
export abstract class MappedXmlHandler<T, R = never> implements XmlContentHandler<T> {
  /** Names of the open elements, root first. */
  protected readonly path: string[] = [];
  /** The open elements are the first `path.length`; the others are kept for reuse. */
  private readonly openElements: OpenRecord<R>[] = [];
  /** By depth, the path of the element that closed last among the children of the open element above. */
  private readonly previousSiblings: (ElementPath<R> | undefined)[] = [];
  /** The paths seen, from the document's root; made when the root element starts. */
  private documentPath: ElementPath<R> | undefined;
  private elementPaths = 0;
  /** The open nodes, the document's root node first. */
  protected readonly nodes: RawNode[];
  private events: T[] = [];

  protected constructor(
    /** Replaceable until the root element starts, for formats whose mapping depends on the root. */
    protected mapping: XmlMapping,
    protected readonly locator: XmlLocator,
    /**
     * Whether the nodes may hold slices of the parser's input as values (see `RawNode`): when
     * what the handler produces is soon copied, as when it is sent to another thread.
     */
    private readonly keepsSlices = false,
  ) {
    this.nodes = [this.newNode()];
  }

  /** Whether an element collects its content in a sub-node; must depend on its arguments only. */
  protected abstract opensSubNode(name: string, field: string | undefined): boolean;

  /**
   * What an element is to the handler, given as `OpenElement.role`: worked out once per element
   * path, so must depend on the name only. None by default.
   */
  protected elementRole(_name: string): R | undefined {
    return undefined;
  }

  /** Called after an element's start is processed (its node opened, its attributes mapped). */
  protected abstract elementStarted(
    element: OpenElement<R>,
    attributes: Readonly<Record<string, string>>,
  ): void;

  /** Called after an element's text is stored, while it is still the innermost element of `path`. */
  protected abstract elementEnded(element: OpenElement<R>): void;

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
    const depth = this.path.length;
    const parent =
      depth === 0
        ? (this.documentPath ??= new ElementPath<R>('', undefined, false, undefined))
        : this.openElements[depth - 1].path;
    this.path.push(name);
    const path = this.childPath(parent, this.previousSiblings[depth], name);
    this.previousSiblings[depth + 1] = undefined;
    const element = this.openElement(depth, path);
    element.name = name;
    element.field = path.field;
    element.subNode = path.subNode;
    element.role = path.role;
    if (element.subNode) this.nodes.push(this.newNode());
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
      const field = element.textField ?? element.field ?? this.unknownField(element.path);
      this.currentNode.putNormalised(field, text);
    }
    this.elementEnded(element);
    this.previousSiblings[open - 1] = element.path;
    this.path.pop();
  }

  /**
   * The path of the element just pushed on `path`, a child of `parent` after `previous` (undefined
   * for a first child): the one that followed last time when the name is the same, else looked up.
   */
  private childPath(
    parent: ElementPath<R>,
    previous: ElementPath<R> | undefined,
    name: string,
  ): ElementPath<R> {
    const predicted = previous === undefined ? parent.firstChild : previous.nextSibling;
    if (predicted !== undefined && predicted.name === name) return predicted;
    let path = parent.children.get(name);
    if (path === undefined) {
      const field = this.mapping.elementField(this.path);
      path = new ElementPath(name, field, this.opensSubNode(name, field), this.elementRole(name));
      // A document with ever new paths (no real one has) is read all the same, without the memo;
      // nor are such paths remembered as siblings, which would keep them all alive.
      if (this.elementPaths === MAX_ELEMENT_PATHS) return path;
      parent.children.set(name, path);
      this.elementPaths++;
    }
    if (previous === undefined) parent.firstChild = path;
    else previous.nextSibling = path;
    return path;
  }

  /** A cleared element record for the given depth: one per depth is reused, not one per element. */
  private openElement(depth: number, path: ElementPath<R>): OpenRecord<R> {
    let element = this.openElements[depth];
    if (element === undefined) {
      element = {
        name: '',
        role: undefined,
        field: undefined,
        text: '',
        spaceAfter: false,
        subNode: false,
        path,
      };
      this.openElements.push(element);
    }
    element.path = path;
    element.text = '';
    element.spaceAfter = false;
    element.textField = undefined;
    return element;
  }

  private newNode(): RawNode {
    return new RawNode(!this.keepsSlices);
  }

  /** Closes the innermost sub-node and returns it. */
  protected closeSubNode(): RawNode {
    const node = this.nodes.pop();
    if (node === undefined || this.nodes.length === 0) throw new Error('No sub-node is open');
    return node;
  }

  /** The field of the innermost element's text when unmapped, named after the element's path. */
  private unknownField(path: ElementPath<R>): string {
    return (path.unknownField ??= `${UNKNOWN_PREFIX}${this.path.join('_')}_`);
  }

  private mapAttributes(element: OpenRecord<R>, attributes: Readonly<Record<string, string>>): void {
    for (const qualifiedName in attributes) {
      const alias = this.mapping.attributeAlias(qualifiedName.slice(qualifiedName.indexOf(':') + 1));
      // As in the reference, an attribute aliased to the description language is not a field.
      if (alias === undefined || alias === LANGUAGE_CODE) continue;
      const value = attributes[qualifiedName];
      const field = this.attributeField(element.path, alias);
      if (field !== null) {
        this.currentNode.put(field, value);
      } else {
        element.textField ??= this.mapping.attributeField(this.path, alias, value);
      }
    }
  }

  /** The field an attribute with `alias` of the innermost element maps to, or null. */
  private attributeField(path: ElementPath<R>, alias: string): string | null {
    let field = path.attributeFields.get(alias);
    if (field === undefined) {
      field = this.mapping.attributeField(this.path, alias) ?? null;
      path.attributeFields.set(alias, field);
    }
    return field;
  }
}

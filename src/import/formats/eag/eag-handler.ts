import { LANGUAGE_CODE, NAME } from '../../../items/ontology';
import { CarriedFields } from '../../parsing/xml/carried-fields';
import { MappedXmlHandler, OpenElement } from '../../parsing/xml/mapped-xml-handler';
import { MAINTENANCE_EVENT, OBJECT_IDENTIFIER } from '../../building/raw-extraction';
import { RawNode } from '../../building/raw-node';
import { XmlMapping } from '../../parsing/xml/xml-mapping';
import { XmlLocator } from '../../parsing/xml/xml-parser';
import { EAG_2012_MAPPING, EAG_2012_NAMESPACE } from './eag2012-mapping';

/** What the reference fills in when a document leaves it out (identifier, name, …). */
function withDefaults(node: RawNode, language: string): void {
  const defaults: [string, string][] = [
    [OBJECT_IDENTIFIER, 'id'],
    ['typeOfEntity', 'organisation'],
    [NAME, 'title'],
    [LANGUAGE_CODE, language],
    ['rulesAndConventions', 'ISDIAH'],
  ];
  for (const [field, value] of defaults) {
    if (!node.values.has(field)) node.put(field, value);
  }
}

/** The namespace of an element from its qualified name and the namespaces it declares. */
function namespaceOf(
  qualifiedName: string,
  attributes: Readonly<Record<string, string>>,
): string | undefined {
  const colon = qualifiedName.indexOf(':');
  return colon === -1 ? attributes.xmlns : attributes[`xmlns:${qualifiedName.slice(0, colon)}`];
}

/**
 * An EAG document describes one repository, emitted as one raw node
 * when the root element closes. Documents in EAG 2012's namespace are read with the EAG 2012 mapping unless the
 * import gives its own.
 */
export class EagHandler extends MappedXmlHandler<RawNode> {
  private readonly carried = new CarriedFields();

  constructor(
    mapping: XmlMapping,
    locator: XmlLocator,
    private readonly defaultLanguage: string,
    private readonly mappingGiven: boolean,
  ) {
    super(mapping, locator);
  }

  override startElement(
    name: string,
    attributes: Readonly<Record<string, string>>,
    qualifiedName = name,
  ): void {
    if (
      this.path.length === 0 &&
      !this.mappingGiven &&
      namespaceOf(qualifiedName, attributes) === EAG_2012_NAMESPACE
    ) {
      this.mapping = EAG_2012_MAPPING;
    }
    super.startElement(name, attributes);
  }

  protected opensSubNode(_name: string, field: string | undefined): boolean {
    return field === MAINTENANCE_EVENT;
  }

  protected elementStarted(element: OpenElement, attributes: Readonly<Record<string, string>>): void {
    this.carried.started(this.path, element, attributes);
  }

  protected elementEnded(element: OpenElement): void {
    if (element.subNode && element.field !== undefined) {
      const subNode = this.closeSubNode();
      this.currentNode.addSubNode(element.field, subNode);
    }
    if (this.path.length === 1) {
      this.carried.finish(this.currentNode);
      withDefaults(this.currentNode, this.defaultLanguage);
      this.emit(this.currentNode);
    }
  }
}

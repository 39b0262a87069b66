import { CarriedFields } from '../../parsing/xml/carried-fields';
import { MappedXmlHandler, OpenElement } from '../../parsing/xml/mapped-xml-handler';
import { RawNode } from '../../building/raw-node';
import { XmlMapping } from '../../parsing/xml/xml-mapping';
import { XmlLocator } from '../../parsing/xml/xml-parser';

/** Mapped fields whose element collects its content in a sub-node (the reference's `EacHandler`). */
export const EAC_SUB_NODES = {
  maintenanceEvent: 'MaintenanceEvent',
  accessPoint: 'AccessPoint',
  datePeriod: 'DatePeriod',
  nameEntry: 'NameEntry',
} as const;

const SUB_NODE_FIELDS: ReadonlySet<string> = new Set(Object.values(EAC_SUB_NODES));

/** An EAC-CPF record as read: its raw fields and sub-nodes, and where it started. */
export interface EacRecord {
  node: RawNode;
  line: number;
}

/**
 * Reads an EAC-CPF document into one raw record, as the reference's `EacHandler`: the document is
 * a single record, complete when its root element closes.
 */
export class EacHandler extends MappedXmlHandler<EacRecord> {
  private startLine = 1;
  private readonly carried = new CarriedFields();

  constructor(mapping: XmlMapping, locator: XmlLocator) {
    super(mapping, locator);
  }

  protected opensSubNode(_name: string, field: string | undefined): boolean {
    return field !== undefined && SUB_NODE_FIELDS.has(field);
  }

  protected elementStarted(element: OpenElement, attributes: Readonly<Record<string, string>>): void {
    if (this.path.length === 1) this.startLine = this.locator.line;
    this.carried.started(this.path, element, attributes);
  }

  protected elementEnded(element: OpenElement): void {
    if (element.subNode && element.field !== undefined) {
      const subNode = this.closeSubNode();
      this.currentNode.addSubNode(element.field, subNode);
    }
    if (this.path.length === 1) {
      this.carried.finish(this.currentNode);
      this.emit({ node: this.currentNode, line: this.startLine });
    }
  }
}

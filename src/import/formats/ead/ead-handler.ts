import { Props } from '../../../items/bundle';
import {
  LANGUAGE_CODE,
  MAINTENANCE_EVENT_TYPE,
  NAME,
  OTHER_IDENTIFIERS,
  SOURCE_FILE_ID,
} from '../../../items/ontology';
import { DATE_PERIOD } from '../../parsing/dates/date-parser';
import { MappedXmlHandler, OpenElement } from '../../parsing/xml/mapped-xml-handler';
import {
  ACCESS_POINT,
  extractMaintenanceEvents,
  MAINTENANCE_EVENT,
  maintenanceEventData,
  OBJECT_IDENTIFIER,
} from '../../building/raw-extraction';
import { RawNode } from '../../building/raw-node';
import { UnitImporter } from '../../building/unit-builder';
import { XmlMapping } from '../../parsing/xml/xml-mapping';
import { XmlLimitError, XmlLocator } from '../../parsing/xml/xml-parser';
import { idLengthRefusal, ReadLimits } from '../read-events';
import { isUsableIdentifier } from '../../../items/identifiers';
import { DuplicateUnitIdPolicy, setLocalId, SiblingIds } from '../../building/sibling-ids';

/** What to do with a unit that has no `did/unitid`. */
export type MissingUnitIdPolicy = 'error' | 'attribute' | 'position';

/** An open unit: what its children need from it, and what its own local id is made of. */
interface OpenUnit {
  /** Undefined until its `did` closes; null when it has no identifier. */
  localId: string | null | undefined;
  /** Set with a local id, when its ancestors have ids and no earlier sibling has the same id. */
  id?: string;
  /** `EadUnit.idProblem`. */
  idProblem?: string;
  /** 1-based, among the units with the same parent. */
  position: number;
  idAttribute: string | undefined;
  childUnits: number;
  /** Where it starts, to name it in messages: `<c02> at line 12`. */
  place: string;
  /** Its children's ids, made when the first one has an id. */
  childIds?: SiblingIds;
}

const ARCHDESC = 'archdesc';
/** How the `idProblem` of a unit below a refused one starts. */
const PARENT_PROBLEM = 'Parent item has no id: ';
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** `archdesc`, `c`, `c01`… (the reference's `^/*c(?:\d*)$`). */
function isUnitElement(name: string): boolean {
  if (name.charCodeAt(0) !== 99 /* c */) return name === ARCHDESC;
  for (let index = 1; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if (code < DIGIT_0 || code > DIGIT_9) return false;
  }
  return true;
}

/** The elements the handler acts on, by what it does with them. */
type EadRole =
  /** `archdesc`: a unit, which takes the header's file-level fields. */
  | 'archdesc'
  /** `c`, `c01`…: a unit. */
  | 'component'
  /** Its identifiers make the unit's id. */
  | 'did'
  /** Holds the finding aid's own id (EAD 2002, EAD 3). */
  | 'eadId'
  /** Sets the default language. */
  | 'language'
  /** Maintenance events (the first two typed) that apply to every unit that has none of its own. */
  | 'profiledesc'
  | 'change'
  | 'maintenanceevent';

const ROLES: ReadonlyMap<string, EadRole> = new Map([
  ['did', 'did'],
  ['eadid', 'eadId'],
  ['recordid', 'eadId'],
  ['language', 'language'],
  ['profiledesc', 'profiledesc'],
  ['change', 'change'],
  ['maintenanceevent', 'maintenanceevent'],
]);

/** File-level fields the top-level unit's description takes from the header. */
const FILE_LEVEL_FIELDS = ['rulesAndConventions', 'processInfo'];
const SUB_NODE_FIELDS = new Set([MAINTENANCE_EVENT, DATE_PERIOD]);

/**
 * The reference's `EadHandler`: reads the units of a finding aid (`archdesc`, `c`, `c01`–`c12`, at
 * any depth) and emits each as soon as its end tag is read, children before their parent. Only
 * the open units' data is held, with the ids of their children so far (to tell repeated ids), so
 * memory grows with a unit's fan-out at most, not with the document.
 */
export class EadHandler<T> extends MappedXmlHandler<T, EadRole> {
  private readonly units: OpenUnit[] = [];
  private topLevelUnits = 0;
  private readonly topLevelIds = new SiblingIds();
  private eadId: string | undefined;
  /** Replaced, never changed: units share it, and their items may be built after more are read. */
  private globalEvents: readonly Props[] = [];
  /** The source file id of the units, made when first needed for the current EAD id and language. */
  private sourceFileId: { eadId: string; language: string; id: string } | undefined;

  constructor(
    mapping: XmlMapping,
    locator: XmlLocator,
    private readonly importer: UnitImporter<T>,
    private defaultLanguage: string,
    private readonly missingUnitId: MissingUnitIdPolicy,
    private readonly duplicateUnitId: DuplicateUnitIdPolicy,
    private readonly limits: ReadLimits,
    /** Whether units may hold slices of the parser's input: see `MappedXmlHandler`. */
    keepsSlices = false,
  ) {
    super(mapping, locator, keepsSlices);
  }

  protected opensSubNode(name: string, field: string | undefined): boolean {
    return (
      isUnitElement(name) ||
      (field !== undefined && (field.endsWith(ACCESS_POINT) || SUB_NODE_FIELDS.has(field)))
    );
  }

  protected override elementRole(name: string): EadRole | undefined {
    if (isUnitElement(name)) return name === ARCHDESC ? 'archdesc' : 'component';
    return ROLES.get(name);
  }

  protected elementStarted(
    element: OpenElement<EadRole>,
    attributes: Readonly<Record<string, string>>,
  ): void {
    switch (element.role) {
      case 'archdesc':
      case 'component': {
        if (this.units.length >= this.limits.maxDepth) {
          throw new XmlLimitError(
            `Units are nested deeper than the limit of ${this.limits.maxDepth} (IMPORT_MAX_DEPTH)`,
          );
        }
        const parent = this.units[this.units.length - 1];
        const position = parent === undefined ? ++this.topLevelUnits : ++parent.childUnits;
        this.units.push({
          localId: undefined,
          position,
          idAttribute: attributes.id,
          childUnits: 0,
          place: `<${element.name}> at line ${this.locator.line}`,
        });
        break;
      }
      // The type of the maintenance event a mapping may make of the element, as the reference sets it.
      case 'profiledesc':
        this.currentNode.put(MAINTENANCE_EVENT_TYPE, 'created');
        break;
      case 'change':
        this.currentNode.put(MAINTENANCE_EVENT_TYPE, 'updated');
        break;
    }
  }

  protected elementEnded(element: OpenElement<EadRole>): void {
    const { role } = element;
    if (role === 'eadId') {
      this.eadId = this.currentNode.first(SOURCE_FILE_ID);
    } else if (role === 'language') {
      this.defaultLanguage = this.currentNode.first(LANGUAGE_CODE) ?? this.defaultLanguage;
    } else if (role === 'did') {
      this.identifyUnit(this.currentNode);
    }
    if (!element.subNode) return;
    const node = this.closeSubNode();
    if (role === 'archdesc' || role === 'component') {
      this.completeUnit(role, node);
      return;
    }
    if (
      element.field === MAINTENANCE_EVENT &&
      (role === 'profiledesc' || role === 'change' || role === 'maintenanceevent')
    ) {
      const event = { ...maintenanceEventData(node), order: this.globalEvents.length };
      this.globalEvents = [...this.globalEvents, event];
    }
    if (element.field !== undefined) this.currentNode.addSubNode(element.field, node);
  }

  /** The unit's `did` is read: its first `unitid` is its local id, any others its other ids. */
  private identifyUnit(node: RawNode): void {
    const index = this.units.length - 1;
    splitIdentifiers(node);
    if (index >= 0 && this.units[index].localId === undefined) {
      this.identify(index, this.localIdOf(this.units[index], node));
    }
  }

  /**
   * Sets the local id of the open unit at `index`, and its id when its ancestors have theirs and
   * no earlier sibling has the same id (else as `duplicateUnitId` says).
   */
  private identify(index: number, localId: string | null): void {
    const unit = this.units[index];
    unit.localId = localId;
    if (localId === null) return;
    if (index === 0) {
      this.identifyAmong(this.topLevelIds, unit, localId, (local) =>
        this.checkedId(this.importer.unitId(local)),
      );
      return;
    }
    const parent = this.units[index - 1];
    // A parent still without `did` (its children came first) has only a derived id, if any.
    if (parent.localId === undefined) this.identify(index - 1, this.localIdOf(parent));
    const parentLocalId = parent.localId;
    if (parent.id !== undefined && parentLocalId != null) {
      const parentRef = { id: parent.id, localId: parentLocalId };
      parent.childIds ??= new SiblingIds();
      this.identifyAmong(parent.childIds, unit, localId, (local) =>
        this.checkedId(this.importer.unitId(local, parentRef)),
      );
    } else if (parent.idProblem !== undefined) {
      unit.idProblem = parent.idProblem.startsWith(PARENT_PROBLEM)
        ? parent.idProblem
        : `${PARENT_PROBLEM}${parent.idProblem}`;
    }
  }

  private identifyAmong(
    siblings: SiblingIds,
    unit: OpenUnit,
    localId: string,
    idOf: (localId: string) => string,
  ): void {
    const identity = siblings.identify(localId, unit.place, idOf, this.duplicateUnitId);
    if ('duplicate' in identity) {
      unit.idProblem = `${unit.place}: ${identity.duplicate}`;
      return;
    }
    unit.localId = identity.localId;
    unit.id = identity.id;
  }

  /**
   * The unit's identifier, or the one `missingUnitId` derives for it, or null. An identifier whose
   * slug is empty (`---`) is missing: it cannot make a segment of an id.
   */
  /** The id, refused where it is made when it is over the limit: no longer id is ever built on it. */
  private checkedId(id: string): string {
    const refusal = idLengthRefusal(id, this.limits.maxIdLength);
    if (refusal !== undefined) throw new XmlLimitError(refusal);
    return id;
  }

  private localIdOf(unit: OpenUnit, node?: RawNode): string | null {
    if (unit.localId !== undefined) return unit.localId;
    const unitId = node?.first(OBJECT_IDENTIFIER);
    if (isUsableIdentifier(unitId)) return unitId;
    if (this.missingUnitId === 'attribute' && isUsableIdentifier(unit.idAttribute)) return unit.idAttribute;
    if (this.missingUnitId === 'position') return String(unit.position);
    if (unitId !== undefined) {
      unit.idProblem = `Missing identifier: unitid ${JSON.stringify(unitId)} slugifies to nothing`;
    }
    return null;
  }

  private completeUnit(role: 'archdesc' | 'component', node: RawNode): void {
    const unit = this.units[this.units.length - 1];
    if (unit === undefined) return;
    splitIdentifiers(node);
    if (unit.localId === undefined) this.identify(this.units.length - 1, this.localIdOf(unit, node));
    this.units.pop();
    const localId = unit.localId ?? null;
    if (localId !== null) {
      setLocalId(node, localId);
      // The reference names an untitled unit after its identifier.
      if (!node.values.has(NAME)) node.set(NAME, localId);
    }
    if (role === 'archdesc') this.addFileLevelFields(node);
    node.set(LANGUAGE_CODE, node.first(LANGUAGE_CODE) ?? this.defaultLanguage);
    if (this.eadId === undefined) node.values.delete(SOURCE_FILE_ID);
    else node.set(SOURCE_FILE_ID, this.unitSourceFileId(this.eadId));
    const parent = this.units[this.units.length - 1];
    this.emit(
      this.importer.importUnit({
        node,
        localId,
        ancestorIds: this.units.map((ancestor) => this.localIdOf(ancestor)),
        id: unit.id,
        parentId: parent?.id,
        ...(unit.idProblem === undefined ? {} : { idProblem: unit.idProblem }),
        maintenanceEvents: node.subNodes.has(MAINTENANCE_EVENT)
          ? extractMaintenanceEvents(node)
          : this.globalEvents,
        line: this.locator.line,
        column: this.locator.column,
      }),
    );
  }

  /**
   * The reference's source file id: the EAD id suffixed with `#` and the language in capitals. One
   * string for all units, rather than one built for each, which would be flattened for each.
   */
  private unitSourceFileId(eadId: string): string {
    const language = this.defaultLanguage;
    const made = this.sourceFileId;
    if (made !== undefined && made.eadId === eadId && made.language === language) return made.id;
    const suffix = `#${language.toUpperCase()}`;
    const id = eadId.toUpperCase().endsWith(suffix) ? eadId : eadId + suffix;
    this.sourceFileId = { eadId, language, id };
    return id;
  }

  private addFileLevelFields(node: RawNode): void {
    const header = this.nodes[0];
    for (const field of FILE_LEVEL_FIELDS) {
      for (const value of header.all(field)) node.put(field, value);
    }
  }
}

/** Keeps the first of several identifiers as the identifier and adds the others to the other ids. */
function splitIdentifiers(node: RawNode): void {
  // Most units have one, which needs no list made of it.
  const identifiers = node.values.get(OBJECT_IDENTIFIER);
  if (identifiers === undefined || typeof identifiers === 'string' || identifiers.length < 2) return;
  node.set(OBJECT_IDENTIFIER, identifiers[0]);
  node.set(OTHER_IDENTIFIERS, [...node.all(OTHER_IDENTIFIERS), ...identifiers.slice(1)]);
}

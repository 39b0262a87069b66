import { Bundle, Props } from '../../items/bundle';
import { childId, descriptionId, joinPath } from '../../items/identifiers';
import { ItemEdgeType, ItemType } from '../../items/item-types';
import { ACCESS_POINT_TYPE, IDENTIFIER, LANGUAGE_CODE, NAME, SOURCE_FILE_ID } from '../../items/ontology';
import { extractDates } from '../parsing/dates/date-parser';
import {
  ACCESS_POINT,
  dependents,
  extractDescription,
  extractIdentifiers,
  extractUnknownProperties,
} from './raw-extraction';
import { RawNode } from './raw-node';
import { ProducedWrite, ReadEvent } from '../formats/read-events';

/** A finding aid's unit, complete, as the reference's `EadHandler` hands it to its importer (CSV
 * rows of units give the same). */
export interface EadUnit {
  /** Its raw data: the fields of the unit and of its description. */
  node: RawNode;
  /** Its local identifier, or null when it has none. */
  localId: string | null;
  /** The local identifiers of its ancestor units, root first; null for an ancestor without one. */
  ancestorIds: (string | null)[];
  /** Its id, when it and its ancestors have local ids. */
  id: string | undefined;
  /** Its parent unit's id; undefined for a top-level unit. */
  parentId: string | undefined;
  /**
   * Why it has no id although it and its ancestors have local ids: its id repeats an earlier
   * unit's, or an ancestor's does. Or why its local id is missing: its `unitid` is blank.
   */
  idProblem?: string;
  /** The maintenance events of its description. */
  maintenanceEvents: readonly Props[];
  /** Where its end tag ends. */
  line: number;
  column: number;
}

/** Builds a unit's item (or its rejection) and its id: the reference's `EadImporter`. */
export interface UnitImporter<T> {
  /** The id of a unit with local id `localId`, a child of `parent` or else top-level. */
  unitId(localId: string, parent?: { id: string; localId: string }): string;
  importUnit(unit: EadUnit): T;
}

/** The scope units are imported into, and the source they are read from. */
export interface UnitSettings {
  tag: string;
  scope: { id: string; type: ItemType; identifiers: readonly string[] };
}

/** Access points whose element gives no type are corporate bodies, as in the reference. */
const DEFAULT_ACCESS_POINT_TYPE = 'corporateBody';

/** The access point fields of a sub-node: `<type>AccessPoint` gives type and name. */
function accessPointData(node: RawNode): Props | undefined {
  const data: Props = {};
  for (const [field, value] of node.values) {
    if (field.endsWith(ACCESS_POINT)) {
      data[ACCESS_POINT_TYPE] = field.slice(0, field.indexOf(ACCESS_POINT));
      data[NAME] = value;
    } else {
      data[field] = value;
    }
  }
  data[ACCESS_POINT_TYPE] ??= DEFAULT_ACCESS_POINT_TYPE;
  // An empty element (`<subject/>`) names nothing.
  return data[NAME] === undefined ? undefined : data;
}

/** The unit's access points (the reference's `EadImporter.extractRelations`). */
function extractAccessPoints(node: RawNode): Props[] {
  const accessPoints: Props[] = [];
  for (const [field, subNodes] of node.subNodes) {
    if (!field.endsWith(ACCESS_POINT)) continue;
    for (const subNode of subNodes) {
      const data = accessPointData(subNode);
      if (data !== undefined) accessPoints.push(data);
    }
  }
  // A mapping may also send an attribute to an access point field of the unit itself.
  for (const [field, value] of node.values) {
    if (!field.endsWith(ACCESS_POINT)) continue;
    const type = field.slice(0, field.indexOf(ACCESS_POINT)) || DEFAULT_ACCESS_POINT_TYPE;
    for (const name of typeof value === 'string' ? [value] : value) {
      accessPoints.push({ [ACCESS_POINT_TYPE]: type, [NAME]: name });
    }
  }
  return accessPoints;
}

/**
 * The reference's `EadImporter`: turns each unit the handler completes into the item to write,
 * with its one description and the description's dates, access points, maintenance events and
 * unknown properties; or into its rejection, when it or an ancestor has no identifier.
 */
export class UnitBuilder implements UnitImporter<ReadEvent> {
  /** Description id suffixes by language, then source file id: one per document, in practice. */
  private readonly descriptionSuffixes = new Map<string, Map<string | undefined, string>>();
  /**
   * The last unit's ancestors: their local ids, and the item ids of the scope and of them, from the
   * top down. A document's units come one after another, mostly below the same ancestors.
   */
  private lastAncestors: { localIds: readonly (string | null)[]; ids: string[] };

  constructor(private readonly settings: UnitSettings) {
    this.lastAncestors = { localIds: [], ids: [settings.scope.id] };
  }

  unitId(localId: string, parent?: { id: string; localId: string }): string {
    if (parent === undefined) return joinPath([...this.settings.scope.identifiers, localId]);
    return childId(parent.id, parent.localId, localId);
  }

  importUnit(unit: EadUnit): ReadEvent {
    if (unit.localId === null) return this.rejection(unit, unit.idProblem ?? 'Missing identifier');
    if (unit.id === undefined) {
      return this.rejection(unit, unit.idProblem ?? 'Parent item has missing identifier');
    }
    const write: ProducedWrite = { bundle: this.bundle(unit, unit.id), edges: this.edges(unit) };
    const ancestors = this.ancestors(unit);
    if (ancestors !== undefined) write.ancestors = ancestors;
    return { kind: 'item', tag: this.settings.tag, write };
  }

  /**
   * A unit's ancestors' item ids from the scope down, its parent last (`ProducedWrite.ancestors`), as
   * `unitId` makes them from their local ids; undefined for a top-level unit (its parent, the
   * scope, is stored) and where they do not end with its parent.
   */
  private ancestors(unit: EadUnit): readonly string[] | undefined {
    if (unit.parentId === undefined) return undefined;
    const localIds = unit.ancestorIds;
    const last = this.lastAncestors;
    let same = 0;
    while (same < localIds.length && localIds[same] === last.localIds[same]) same++;
    if (same < localIds.length || localIds.length < last.localIds.length) {
      // ids[depth] is the item id of localIds[depth - 1]; ids[0] the scope's.
      const ids = last.ids.slice(0, same + 1);
      for (let depth = same; depth < localIds.length; depth++) {
        const localId = localIds[depth];
        const parentLocalId = localIds[depth - 1];
        if (localId === null || parentLocalId === null) return undefined;
        const parent = depth === 0 ? undefined : { id: ids[depth], localId: parentLocalId };
        ids.push(this.unitId(localId, parent));
      }
      this.lastAncestors = { localIds, ids };
    }
    const { ids } = this.lastAncestors;
    return ids[ids.length - 1] === unit.parentId ? ids : undefined;
  }

  private bundle(unit: EadUnit, itemId: string): Bundle {
    const { node } = unit;
    const dates = extractDates(node);
    const accessPoints = extractAccessPoints(node);
    const unknowns = extractUnknownProperties(node);
    const data = extractDescription(node, 'DocumentaryUnitDescription');
    // With its language, the source file id tells a description apart from the unit's others.
    const sourceFileId = data[SOURCE_FILE_ID];
    delete data[IDENTIFIER];
    if (typeof sourceFileId === 'string') data[IDENTIFIER] = sourceFileId;
    const id =
      itemId + this.descriptionSuffix(String(data[LANGUAGE_CODE]), data[IDENTIFIER] as string | undefined);
    const relations: Bundle['relations'] = {};
    if (dates.length > 0) relations.hasDate = dependents(id, 'hasDate', 'DatePeriod', dates);
    if (accessPoints.length > 0)
      relations.relatesTo = dependents(id, 'relatesTo', 'AccessPoint', accessPoints);
    if (unit.maintenanceEvents.length > 0) {
      relations.maintenance = dependents(id, 'maintenance', 'MaintenanceEvent', unit.maintenanceEvents);
    }
    if (Object.keys(unknowns).length > 0) {
      relations.hasUnknownProperty = dependents(id, 'hasUnknownProperty', 'UnknownProperty', [unknowns]);
    }
    const description: Bundle = { id, type: 'DocumentaryUnitDescription', data, relations };
    return {
      id: itemId,
      type: 'DocumentaryUnit',
      data: extractIdentifiers(node),
      relations: { describes: [description] },
    };
  }

  /** What `descriptionId` appends to the item id. */
  private descriptionSuffix(language: string, identifier: string | undefined): string {
    let byIdentifier = this.descriptionSuffixes.get(language);
    if (byIdentifier === undefined) {
      byIdentifier = new Map();
      this.descriptionSuffixes.set(language, byIdentifier);
    }
    let suffix = byIdentifier.get(identifier);
    if (suffix === undefined) {
      suffix = descriptionId('', language, identifier);
      byIdentifier.set(identifier, suffix);
    }
    return suffix;
  }

  /** Edges to the parent unit, or for a top-level unit to the scope, also the permission scope. */
  private edges(unit: EadUnit): Partial<Record<ItemEdgeType, string[]>> {
    const { scope } = this.settings;
    const parentId = unit.parentId ?? scope.id;
    const parentEdge: ItemEdgeType =
      unit.parentId === undefined && scope.type === 'Repository' ? 'heldBy' : 'childOf';
    return { [parentEdge]: [parentId], hasPermissionScope: [parentId] };
  }

  private rejection(unit: EadUnit, reason: string): ReadEvent {
    const path = [...unit.ancestorIds, unit.localId].map((id) => id ?? '[null]').join('/');
    return {
      kind: 'invalid',
      tag: this.settings.tag,
      key: `${path} (line ${unit.line})`,
      message: `DocumentaryUnit ${path} in ${this.settings.tag}, ending at line ${unit.line}, column ${unit.column}: identifier: ${reason}`,
    };
  }
}

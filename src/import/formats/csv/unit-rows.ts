import { isUsableIdentifier } from '../../../items/identifiers';
import { ItemType } from '../../../items/item-types';
import { LANGUAGE_CODE, NAME } from '../../../items/ontology';
import { OBJECT_IDENTIFIER } from '../../building/raw-extraction';
import { UnitBuilder } from '../../building/unit-builder';
import { setLocalId, SiblingIdentity, SiblingIds } from '../../building/sibling-ids';
import { ItemRejected, ReadEvent } from '../format-reader';
import { CsvRow, csvRowRejection, missingIdentifier } from './csv-row';
import { CsvScope, RowImporter, RowSettings, scopeOf } from './row-importer';

/**
 * The column naming a unit's parent by its local identifier: the reference's hierarchy file
 * (`DynamicPermissionScopeFinder`: local id → parent local id) as a column of the table.
 */
export const PARENT_IDENTIFIER = 'parentIdentifier';

interface Parent {
  id: string;
  localId: string;
}

/**
 * Documentary units from CSV rows, built as the reference's `EadImporter` builds them from a
 * CSV's data maps, with the EAD reader's unit importer. A row whose `parentIdentifier` names a
 * unit (earlier in the table, or already in the scope) is that unit's child; its id continues
 * the parent's.
 */
export class UnitRows implements RowImporter {
  private readonly units: UnitBuilder;
  private readonly scope: CsvScope;
  /** Local id → id of the units read so far and, once needed, of the units in the scope. */
  private readonly known = new Map<string, string>();
  /** Local ids held by more than one unit of the scope. */
  private readonly ambiguous = new Set<string>();
  /** Local ids of rows that were rejected. */
  private readonly rejected = new Set<string>();
  /** Local ids of the table's rows, as given and as made unique. */
  private readonly fromTable = new Set<string>();
  /** Local ids of more than one row: no row can name its parent by them. */
  private readonly repeated = new Set<string>();
  /** The ids of each parent's child units (the scope's under its id), to tell repeated ids. */
  private readonly siblings = new Map<string, SiblingIds>();
  private scopeLoaded = false;

  constructor(private readonly settings: RowSettings) {
    this.scope = scopeOf(settings);
    this.units = new UnitBuilder({
      tag: settings.tag,
      scope: {
        id: this.scope.bundle.id,
        type: this.scope.bundle.type as ItemType,
        identifiers: this.scope.identifiers,
      },
    });
  }

  async event(row: CsvRow): Promise<ReadEvent> {
    const { node } = row;
    const given = node.first(OBJECT_IDENTIFIER);
    if (!isUsableIdentifier(given)) return missingIdentifier(row, OBJECT_IDENTIFIER, 'a unit');
    const checked = await this.checked(row);
    if ('kind' in checked) {
      this.rejected.add(given);
      return checked;
    }
    const { parent } = checked;
    if (!node.values.has(LANGUAGE_CODE)) node.put(LANGUAGE_CODE, this.settings.lang);
    const identity = this.identify(given, parent, row);
    if ('duplicate' in identity) return csvRowRejection(row, OBJECT_IDENTIFIER, identity.duplicate);
    const { localId, id } = identity;
    setLocalId(node, localId);
    return this.units.importUnit({
      node,
      localId,
      ancestorIds: parent === undefined ? [] : [parent.localId],
      id,
      parentId: parent?.id,
      maintenanceEvents: [],
      line: row.row,
      column: 1,
    });
  }

  /**
   * The row's local id and id, unless an earlier row under the same parent has that id: then
   * as `duplicateUnitId` says. A local id of several rows names no parent.
   */
  private identify(localId: string, parent: Parent | undefined, row: CsvRow): SiblingIdentity {
    const parentId = parent?.id ?? this.scope.bundle.id;
    let siblings = this.siblings.get(parentId);
    if (siblings === undefined) this.siblings.set(parentId, (siblings = new SiblingIds()));
    const idOf = (local: string) => this.units.unitId(local, parent);
    const identity = siblings.identify(localId, `row ${row.row}`, idOf, this.settings.duplicateUnitId);
    for (const held of new Set([localId, 'localId' in identity ? identity.localId : localId])) {
      if (this.fromTable.has(held)) this.repeated.add(held);
      this.fromTable.add(held);
    }
    if ('duplicate' in identity) return identity;
    this.known.set(identity.localId, identity.id);
    return identity;
  }

  /** The row's parent unit, if it names one; or why the row cannot be a unit. */
  private async checked(row: CsvRow): Promise<ItemRejected | { parent?: Parent }> {
    const parentLocalId = row.node.first(PARENT_IDENTIFIER);
    row.node.values.delete(PARENT_IDENTIFIER);
    const parent = parentLocalId === undefined ? undefined : await this.parent(parentLocalId);
    if (typeof parent === 'string') return csvRowRejection(row, PARENT_IDENTIFIER, parent);
    if (!row.node.values.has(NAME)) return csvRowRejection(row, NAME, 'missing: a description needs a name');
    return { parent };
  }

  /** The unit a row names as its parent, or why it cannot be the parent. */
  private async parent(localId: string): Promise<Parent | string> {
    if (this.repeated.has(localId)) return `several rows of the table have the identifier ${localId}`;
    if (this.rejected.has(localId)) return `parent unit ${localId} was not imported`;
    if (!this.known.has(localId) && !this.scopeLoaded) await this.loadScope();
    if (this.ambiguous.has(localId)) {
      return `several units in ${this.scope.bundle.id} have the identifier ${localId}`;
    }
    const id = this.known.get(localId);
    if (id === undefined) {
      return `no unit with the identifier ${localId} earlier in the table or in ${this.scope.bundle.id}`;
    }
    return { id, localId };
  }

  /** The units already in the scope; units read from the table take precedence. */
  private async loadScope(): Promise<void> {
    this.scopeLoaded = true;
    const fromTable = new Set(this.known.keys());
    const seen = new Set<string>();
    for (const entry of await this.settings.store.subtree(this.scope.bundle.id)) {
      if (entry.type !== 'DocumentaryUnit' || fromTable.has(entry.localId)) continue;
      if (seen.has(entry.localId)) this.ambiguous.add(entry.localId);
      seen.add(entry.localId);
      this.known.set(entry.localId, entry.id);
    }
  }
}

import { ItemType } from '../../../items/item-types';
import { LANGUAGE_CODE, NAME } from '../../../items/ontology';
import { OBJECT_IDENTIFIER } from '../shared/raw-extraction';
import { UnitBuilder } from '../shared/unit-builder';
import { ItemRejected, ReadEvent } from '../format-reader';
import { CsvRow, csvRowRejection } from './csv-row';
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
    const localId = node.first(OBJECT_IDENTIFIER);
    if (localId === undefined)
      return csvRowRejection(row, OBJECT_IDENTIFIER, 'missing: a unit needs an identifier');
    const checked = await this.checked(row);
    if ('kind' in checked) {
      this.rejected.add(localId);
      return checked;
    }
    const { parent } = checked;
    if (!node.values.has(LANGUAGE_CODE)) node.put(LANGUAGE_CODE, this.settings.lang);
    const id = this.units.unitId(localId, parent);
    this.known.set(localId, id);
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

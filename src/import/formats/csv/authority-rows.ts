import { Bundle, Props } from '../../../items/bundle';
import { descriptionId, isUsableIdentifier, joinPath } from '../../../items/identifiers';
import { DependentType, ItemType } from '../../../items/item-types';
import { IDENTIFIER, LANGUAGE_CODE, NAME } from '../../../items/ontology';
import { storedValue } from '../../building/node-properties';
import { ReadEvent } from '../format-reader';
import { CsvRow, csvRowRejection, missingIdentifier } from './csv-row';
import { CsvScope, RowImporter, RowSettings, scopeOf } from './row-importer';

/** The reference's columns for authoritative items (`CsvAuthoritativeItemImporter`). */
const ID = 'id';
const TYPE_OF_ENTITY = 'typeOfEntity';
/** What the reference puts in a description that gives no type of entity. */
const DEFAULT_TYPE_OF_ENTITY = 'subject';
const CREATION_PROCESS: Props = { creationProcess: 'IMPORT' };

/** An authoritative item type and the type of its descriptions. */
export interface AuthorityTypes {
  item: Extract<ItemType, 'HistoricalAgent' | 'CvocConcept'>;
  description: Extract<DependentType, 'HistoricalAgentDescription' | 'CvocConceptDescription'>;
}

/**
 * Historical agents or concepts from CSV rows, as the reference's `CsvHistoricalAgentImporter`
 * and `CsvConceptImporter` make them: `id` is the item's identifier, every other column a field
 * of its one description, which needs a `name`.
 */
export class AuthorityRows implements RowImporter {
  private readonly scope: CsvScope;

  constructor(
    private readonly types: AuthorityTypes,
    private readonly settings: RowSettings,
  ) {
    this.scope = scopeOf(settings);
  }

  event(row: CsvRow): ReadEvent {
    const { node } = row;
    const identifier = node.first(ID);
    if (!isUsableIdentifier(identifier)) return missingIdentifier(row, ID, `a ${this.types.item}`);
    if (!node.values.has(NAME)) return csvRowRejection(row, NAME, 'missing: a description needs a name');
    const itemId = joinPath([...this.scope.identifiers, identifier]);
    const scopeId = this.scope.bundle.id;
    const bundle: Bundle = {
      id: itemId,
      type: this.types.item,
      data: { [IDENTIFIER]: identifier },
      relations: { describes: [this.description(row, itemId)] },
    };
    const edges = { inAuthoritativeSet: [scopeId], hasPermissionScope: [scopeId] };
    return { kind: 'item', tag: row.tag, write: { bundle, edges } };
  }

  private description(row: CsvRow, itemId: string): Bundle {
    const data: Props = { ...CREATION_PROCESS, [TYPE_OF_ENTITY]: DEFAULT_TYPE_OF_ENTITY };
    for (const [field, value] of row.node.values) {
      if (field !== ID) data[field] = storedValue(this.types.description, field, value);
    }
    data[LANGUAGE_CODE] ??= this.settings.lang;
    return {
      id: descriptionId(itemId, String(data[LANGUAGE_CODE])),
      type: this.types.description,
      data,
      relations: {},
    };
  }
}

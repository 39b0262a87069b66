import { ItemType } from '../../../items/item-types';
import { LANGUAGE_CODE, NAME } from '../../../items/ontology';
import { OBJECT_IDENTIFIER } from '../../building/raw-extraction';
import { repositoryEvent } from '../../building/repository-builder';
import { ImportInputError, ReadEvent } from '../format-reader';
import { AuthorityRows } from './authority-rows';
import { CountryRows } from './country-rows';
import { CsvRow, csvRowRejection, missingIdentifier } from './csv-row';
import { isUsableIdentifier } from '../../../items/identifiers';
import { CsvScope, RowImporter, RowSettings, scopeOf } from './row-importer';
import { UnitRows } from './unit-rows';

/** An item type a CSV import can make, and the `importer` names that choose it. */
export interface CsvKind {
  /** The short name, itself an `importer` value. */
  name: string;
  /** The reference's importer classes that read CSV into this item type. */
  classNames: readonly string[];
  /** The scope types it takes; none when it takes no scope. */
  scopeTypes: readonly ItemType[];
  rows(settings: RowSettings): RowImporter;
}

function withReferencePackage(packageName: string, ...classes: string[]): string[] {
  return classes.flatMap((name) => [name, `eu.ehri.project.importers.${packageName}.${name}`]);
}

/** Repositories from CSV rows with the EAG reader's repository builder (the reference's `EagImporter`). */
class RepositoryRows implements RowImporter {
  private readonly scope: CsvScope;

  constructor(private readonly settings: RowSettings) {
    this.scope = scopeOf(settings);
  }

  event(row: CsvRow): ReadEvent {
    const { node } = row;
    if (!isUsableIdentifier(node.first(OBJECT_IDENTIFIER))) {
      return missingIdentifier(row, OBJECT_IDENTIFIER, 'a repository');
    }
    if (!node.values.has(NAME)) return csvRowRejection(row, NAME, 'missing: a description needs a name');
    if (!node.values.has(LANGUAGE_CODE)) node.put(LANGUAGE_CODE, this.settings.lang);
    return repositoryEvent(node, {
      tag: row.tag,
      scope: { id: this.scope.bundle.id, identifiers: this.scope.identifiers },
    });
  }
}

/** The first is the default, as the reference's CSV import defaults to its `EadImporter`. */
export const CSV_KINDS: readonly CsvKind[] = [
  {
    name: 'units',
    classNames: withReferencePackage('ead', 'EadImporter'),
    scopeTypes: ['Repository', 'DocumentaryUnit'],
    rows: (settings) => new UnitRows(settings),
  },
  {
    name: 'repositories',
    classNames: withReferencePackage('eag', 'EagImporter'),
    scopeTypes: ['Country'],
    rows: (settings) => new RepositoryRows(settings),
  },
  {
    name: 'agents',
    classNames: withReferencePackage('csv', 'CsvHistoricalAgentImporter', 'CsvAuthoritativeItemImporter'),
    scopeTypes: ['AuthoritativeSet'],
    rows: (settings) =>
      new AuthorityRows({ item: 'HistoricalAgent', description: 'HistoricalAgentDescription' }, settings),
  },
  {
    name: 'concepts',
    classNames: withReferencePackage('csv', 'CsvConceptImporter'),
    scopeTypes: ['CvocVocabulary'],
    rows: (settings) =>
      new AuthorityRows({ item: 'CvocConcept', description: 'CvocConceptDescription' }, settings),
  },
  { name: 'countries', classNames: [], scopeTypes: [], rows: (settings) => new CountryRows(settings) },
];

/** The kind an `importer` value names; the default kind when it names the CSV format itself. */
export function csvKind(importer: string | undefined): CsvKind {
  const named = CSV_KINDS.find((kind) => kind.name === importer || kind.classNames.includes(importer ?? ''));
  return named ?? CSV_KINDS[0];
}

/** Refuses a scope the kind does not take, or its absence when it needs one. */
export function checkScope(kind: CsvKind, scope: CsvScope | undefined): void {
  const expected = kind.scopeTypes.join(' or ');
  if (scope === undefined) {
    if (kind.scopeTypes.length === 0) return;
    throw new ImportInputError(
      `A CSV import of ${kind.name} needs a ${expected}: give its id as the scope parameter`,
    );
  }
  const type = scope.bundle.type as ItemType;
  if (kind.scopeTypes.length === 0) throw new ImportInputError(`A CSV import of ${kind.name} takes no scope`);
  if (!kind.scopeTypes.includes(type)) {
    throw new ImportInputError(
      `Scope ${scope.bundle.id} is a ${type}; a CSV import of ${kind.name} takes a ${expected}`,
    );
  }
}

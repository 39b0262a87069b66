import { Bundle } from '../../../items/bundle';
import { ItemType } from '../../../items/item-types';
import { checkScope, CSV_KINDS, csvKind } from './csv-kinds';
import { CsvScope } from './row-importer';

function scope(id: string, type: ItemType): CsvScope {
  const bundle: Bundle = { id, type, data: { identifier: id }, relations: {} };
  return {
    bundle,
    edges: {},
    hash: 'h',
    updated: '2024-01-01T00:00:00.000Z',
    ancestors: [],
    identifiers: [id],
  };
}

describe('csvKind', () => {
  it.each([
    [undefined, 'units'],
    ['csv', 'units'],
    ['EadImporter', 'units'],
    ['eu.ehri.project.importers.ead.EadImporter', 'units'],
    ['eu.ehri.project.importers.eag.EagImporter', 'repositories'],
    ['CsvHistoricalAgentImporter', 'agents'],
    ['eu.ehri.project.importers.csv.CsvAuthoritativeItemImporter', 'agents'],
    ['CsvConceptImporter', 'concepts'],
    ['countries', 'countries'],
  ])('takes importer %s as %s', (importer, kind) => {
    expect(csvKind(importer).name).toBe(kind);
  });
});

describe('checkScope', () => {
  const kind = (name: string) => CSV_KINDS.find((candidate) => candidate.name === name)!;

  it('accepts the scope types of the item type', () => {
    expect(() => checkScope(kind('units'), scope('r1', 'Repository'))).not.toThrow();
    expect(() => checkScope(kind('units'), scope('c1', 'DocumentaryUnit'))).not.toThrow();
    expect(() => checkScope(kind('concepts'), scope('cvoc1', 'CvocVocabulary'))).not.toThrow();
    expect(() => checkScope(kind('countries'), undefined)).not.toThrow();
  });

  it('refuses another type, a missing scope, and a scope where none is taken', () => {
    expect(() => checkScope(kind('agents'), scope('cvoc1', 'CvocVocabulary'))).toThrow(
      'Scope cvoc1 is a CvocVocabulary; a CSV import of agents takes a AuthoritativeSet',
    );
    expect(() => checkScope(kind('repositories'), undefined)).toThrow(
      'A CSV import of repositories needs a Country: give its id as the scope parameter',
    );
    expect(() => checkScope(kind('countries'), scope('nl', 'Country'))).toThrow(
      'A CSV import of countries takes no scope',
    );
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { addNamedItem } from '../src/named-items/named-item';
import { addReferenceRepository } from './support/ehri-fixtures';
import { EHRI_FIXTURES } from './support/fixture-paths';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/** One import of the fixtures: an endpoint, its parameters and its body. */
interface FixtureImport {
  endpoint: string;
  query: Record<string, string>;
  body: string | Buffer | string[][];
  contentType?: string;
}

function fixture(name: string): Buffer {
  return readFileSync(path.join(EHRI_FIXTURES, name));
}

function xml(
  endpoint: string,
  scope: string,
  name: string,
  query: Record<string, string> = {},
): FixtureImport {
  return {
    endpoint,
    query: { scope, tag: name, ...query },
    body: fixture(name),
    contentType: 'application/xml',
  };
}

const SET = 'auths';
const VOCABULARY = 'cvoc';

/**
 * Every fixture of `test/fixtures/ehri`, as its format's tests post it, in an order in which
 * each finds what it refers to (links and coreferences name units and agents imported before).
 * Documents with refused units go with tolerant=true, which makes them accepted input.
 */
const IMPORTS: [string, FixtureImport][] = [
  ...[
    'ead.xml',
    'ead2.xml',
    'hierarchical-ead.xml',
    'comprehensive-ead.xml',
    'irn1351.xml',
    'single-ead.xml',
    'single-ead-no-lang.xml',
    'single-ead-multilang-eng.xml',
    'single-ead-multilang-deu.xml',
    'single-ead-multilang-deu-2.xml',
    'ead1c.xml',
    'ead1s.xml',
    'ead1f.xml',
    'ead2c.xml',
  ].map((name): [string, FixtureImport] => [name, xml('ead', 'r1', name)]),
  ...['invalid-ead.xml', 'anonymous-c-levels.xml', 'missing-parent-unitid-ead.xml'].map(
    (name): [string, FixtureImport] => [`${name} (tolerant)`, xml('ead', 'r1', name, { tolerant: 'true' })],
  ),
  [
    'anonymous-c-levels.xml (missing-unitid=position)',
    xml('ead', 'r1', 'anonymous-c-levels.xml', { 'missing-unitid': 'position' }),
  ],
  [
    'hierarchical-ead.xml (ead-sync of its fonds)',
    xml('ead-sync', 'r1', 'hierarchical-ead.xml', { fonds: 'nl-r1-ctop_level_fonds' }),
  ],
  ['eag.xml', xml('eag', 'nl', 'eag.xml')],
  ['eag-2896.xml', xml('eag', 'nl', 'eag-2896.xml')],
  ['eac.xml', xml('eac', SET, 'eac.xml')],
  ['abwehr.xml', xml('eac', SET, 'abwehr.xml')],
  ['cvoc/simple.n3', xml('skos', VOCABULARY, 'cvoc/simple.n3', { format: 'N3' })],
  ['cvoc/simple-xl.n3', xml('skos', VOCABULARY, 'cvoc/simple-xl.n3', { format: 'N3' })],
  ['cvoc/geonames.ttl', xml('skos', VOCABULARY, 'cvoc/geonames.ttl', { format: 'Turtle' })],
  ['cvoc/camps.rdf', xml('skos', VOCABULARY, 'cvoc/camps.rdf', { format: 'RDF/XML' })],
  ['cvoc/repository-types.xml', xml('skos', VOCABULARY, 'cvoc/repository-types.xml')],
  [
    'simple.csv',
    {
      endpoint: 'csv',
      query: { scope: 'r1', tag: 'simple.csv' },
      body: fixture('simple.csv'),
      contentType: 'text/csv',
    },
  ],
  [
    'links between the imported units and agents',
    {
      endpoint: 'links',
      query: {},
      body: [
        ['nl-r1-ctop_level_fonds', 'auths-test_eac', '', 'associative', '', 'Test'],
        ['nl-r1-test_doc', 'nl-test_repository', '', 'copy', '', 'Test 2'],
      ],
    },
  ],
  [
    'coreferences of the imported access points',
    {
      endpoint: 'coreferences',
      query: { scope: 'r1' },
      body: [
        ['Test Name', 'auths-test_eac'],
        ['Engelhart, Anne', 'nl-test_repository'],
      ],
    },
  ],
];

type ImportLog = Record<'created' | 'updated' | 'unchanged', number> &
  Record<'created_keys' | 'updated_keys' | 'unchanged_keys', Record<string, string[]>> & {
    errors: Record<string, string>;
  };

/** The import log of an answer (`ead-sync` answers it under `log`). */
function logOf(body: { log?: ImportLog } & ImportLog): ImportLog {
  return body.log ?? body;
}

/** Every id a log lists, sorted. */
function listedIds(log: ImportLog): string[] {
  const keys = [log.created_keys, log.updated_keys, log.unchanged_keys];
  return keys.flatMap((byTag) => Object.values(byTag).flat()).sort();
}

describe('importing any accepted input twice answers all unchanged the second time', () => {
  let t: ImportTestApp;

  beforeAll(async () => {
    // Over a hundred imports in a minute, one at a time: no limit refuses them.
    t = await createImportTestApp();
    await addReferenceRepository(t);
    await addNamedItem(t.store, 'AuthoritativeSet', SET);
    await addNamedItem(t.store, 'CvocVocabulary', VOCABULARY);
  });
  afterAll(() => t.close());

  function post({ endpoint, query, body, contentType }: FixtureImport, extra: Record<string, string>) {
    const request = t.post(endpoint, { commit: 'true', ...query, ...extra });
    return (contentType === undefined ? request : request.set('Content-Type', contentType)).send(
      body as string | object,
    );
  }

  it.each(IMPORTS)('%s', async (_name, fixtureImport) => {
    // The first time may update what earlier fixtures imported (other languages of one unit).
    const first = logOf((await post(fixtureImport, { 'allow-update': 'true' }).expect(201)).body);
    expect(listedIds(first).length + Object.keys(first.errors).length).toBeGreaterThan(0);

    // The second time must not even try to: without allow-update, an update would be a 400.
    const second = logOf((await post(fixtureImport, {}).expect(201)).body);
    expect(second).toMatchObject({ created: 0, updated: 0, unchanged: listedIds(first).length });
    expect(listedIds(second)).toEqual(listedIds(first));
    expect(second.errors).toEqual(first.errors);
  });
});

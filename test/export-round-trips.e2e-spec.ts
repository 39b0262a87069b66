import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { vocabularyStatements } from '../src/export/skos/vocabulary-statements';
import { addNamedItem } from '../src/named-items/named-item';
import { EHRI_FIXTURES } from './support/fixture-paths';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { validateAgainst } from './support/xml-schemas';

function fixture(...names: string[]): Buffer {
  return readFileSync(path.join(EHRI_FIXTURES, ...names));
}

interface ImportAnswer {
  created: number;
  updated: number;
  unchanged: number;
  created_keys: Record<string, string[]>;
  errors: Record<string, string>;
}

/** The SKOS fixtures, with how each is posted (as the SKOS import's own tests post them). */
const VOCABULARIES: { name: string; query: Record<string, string>; contentType?: string }[] = [
  { name: 'simple.n3', query: { format: 'N3' } },
  { name: 'simple-xl.n3', query: { format: 'N3' } },
  { name: 'repository-types.xml', query: {} },
  { name: 'camps.rdf', query: {}, contentType: 'application/rdf+xml' },
  { name: 'geonames.ttl', query: { format: 'Turtle' } },
];

const SYNTAXES = ['text/turtle', 'application/rdf+xml', 'application/n-triples', 'application/ld+json'];

/**
 * The proof of the exports: what the service exports, its importers read back into the same scope
 * as the very items it was made from (every item unchanged), and the XML validates against its
 * standard's schema.
 */
/** A store's first schema and imports are slow on a Neo4j server just started. */
const STORE_START_TIMEOUT = 180_000;

describe('exports: round trips through the importers', () => {
  let t: ImportTestApp;
  let token: string;

  beforeAll(async () => {
    t = await createImportTestApp();
    token = await t.token('portal');
    await addNamedItem(t.store, 'AuthoritativeSet', 'auths');
  }, STORE_START_TIMEOUT);
  afterAll(() => t.close());

  async function importInto(
    format: string,
    scope: string,
    body: string | Buffer,
    query: Record<string, string> = {},
    contentType = 'application/xml',
  ): Promise<ImportAnswer> {
    const response = await t
      .post(format, { scope, commit: 'true', ...query })
      .set('Content-Type', contentType)
      .send(body);
    expect({ status: response.status, errors: response.body.errors }).toEqual({ status: 201, errors: {} });
    return response.body as ImportAnswer;
  }

  function exported(url: string, accept?: string): Promise<request.Response> {
    const get = request(t.server).get(url).set('Authorization', `Bearer ${token}`).buffer(true);
    return (accept === undefined ? get : get.set('Accept', accept)).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
  }

  async function assertValid(schema: string, xml: string): Promise<void> {
    const { valid, errors } = await validateAgainst(schema, xml);
    expect({ valid, errors }).toEqual({ valid: true, errors: [] });
  }

  function createdIds(answer: ImportAnswer): string[] {
    return Object.values(answer.created_keys).flat();
  }

  it.each(['eag.xml', 'eag-2896.xml'])(
    'EAG: %s comes back unchanged from its EAG 2012 export, which eag_2012.xsd validates',
    async (name) => {
      const [id] = createdIds(await importInto('eag', 'nl', fixture(name)));
      const response = await exported(`/export/repositories/${id}/eag`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/xml/);
      const xml = String(response.body);
      await assertValid('eag_2012.xsd', xml);

      const again = await importInto('eag', 'nl', xml, { 'allow-update': 'true' });
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    },
  );

  it.each(['eac.xml', 'abwehr.xml'])(
    'EAC: %s comes back unchanged from its EAC-CPF export, which eac.xsd validates',
    async (name) => {
      const [id] = createdIds(await importInto('eac', 'auths', fixture(name)));
      const response = await exported(`/export/agents/${id}/eac`);
      expect(response.status).toBe(200);
      const xml = String(response.body);
      await assertValid('eac.xsd', xml);

      const again = await importInto('eac', 'auths', xml, { 'allow-update': 'true' });
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    },
  );

  describe.each(VOCABULARIES)('SKOS: $name', ({ name, query, contentType }) => {
    const vocabulary = `cvoc-${name.replace(/\W/g, '_')}`;
    let count = 0;

    beforeAll(async () => {
      await addNamedItem(t.store, 'CvocVocabulary', vocabulary);
      const answer = await importInto('skos', vocabulary, fixture('cvoc', name), query, contentType);
      count = answer.created;
      expect(count).toBeGreaterThan(0);
    }, STORE_START_TIMEOUT);

    it.each(SYNTAXES)('comes back unchanged from its %s export', async (syntax) => {
      const response = await exported(`/export/vocabularies/${vocabulary}/skos`, syntax);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe(`${syntax}; charset=utf-8`);

      const again = await importInto(
        'skos',
        vocabulary,
        String(response.body),
        { 'allow-update': 'true' },
        syntax,
      );
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: count });
    });

    it('writes the same statements a page of one concept at a time as all at once', async () => {
      const vocabularyItem = (await t.items([vocabulary])).get(vocabulary);
      if (vocabularyItem === undefined) throw new Error(`${vocabulary} is not stored`);
      const collect = async (pageSize: number) => {
        const groups = [];
        for await (const group of vocabularyStatements(t.store, vocabularyItem, 'urn:scheme', pageSize)) {
          groups.push(group);
        }
        return groups;
      };
      const paged = await collect(1);
      expect(paged.filter((group) => group.subject !== 'urn:scheme').length).toBeGreaterThanOrEqual(count);
      expect(paged).toEqual(await collect(1000));
    });
  });
});

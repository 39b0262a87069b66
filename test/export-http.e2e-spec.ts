import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { addNamedItem } from '../src/named-items/named-item';
import { tombstoneRepository } from '../src/graph/records/tombstone-repository';
import { EHRI_FIXTURES } from './support/fixture-paths';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { createTestApp } from './support/test-app';

const VOCABULARY = 'cvoc1';
const SKOS = `/export/vocabularies/${VOCABULARY}/skos`;

/** A repository in `nl` with a description in each of `names`' languages. */
function repository(id: string, names: Record<string, string>): Bundle {
  return {
    id,
    type: 'Repository',
    data: { identifier: id },
    relations: {
      describes: Object.entries(names).map(([languageCode, name]) => ({
        id: `${id}.${languageCode}`,
        type: 'RepositoryDescription',
        data: { name, languageCode, identifier: `${id}#desc` },
        relations: {},
      })),
    },
  };
}

/** A store's first schema and imports are slow on a Neo4j server just started. */
const STORE_START_TIMEOUT = 180_000;

describe('exports over HTTP', () => {
  let t: ImportTestApp;
  let portalToken: string;

  beforeAll(async () => {
    t = await createImportTestApp();
    portalToken = await t.token('portal');
    await addNamedItem(t.store, 'CvocVocabulary', VOCABULARY);
    await t
      .post('skos', { scope: VOCABULARY, commit: 'true', format: 'N3' })
      .send(readFileSync(path.join(EHRI_FIXTURES, 'cvoc', 'simple.n3')))
      .expect(201);
    const bundle = repository('nl-two', { eng: 'The Archive', deu: 'Das Archiv' });
    await t.store.write(async (tx) => {
      await tx.putItems([{ bundle, hash: itemHash(bundle), edges: { hasCountry: ['nl'] } }]);
      await tombstoneRepository.put(tx, [
        { itemId: 'nl-gone', removed: '2026-01-02T03:04:05.000Z' },
        { itemId: 'nl-old', removed: '2026-01-02T03:04:05.000Z', movedTo: 'nl-two' },
      ]);
    });
  }, STORE_START_TIMEOUT);
  afterAll(() => t.close());

  /** A GET with the portal token, another token, or none (`null`). */
  function get(url: string, token: string | null = portalToken): request.Test {
    const test = request(t.server).get(url).buffer(true);
    return token === null ? test : test.set('Authorization', `Bearer ${token}`);
  }

  describe('access', () => {
    it('asks for a token of role portal or ops', async () => {
      const missing = await get('/export/repositories/nl-two/eag', null).expect(401);
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      await get('/export/repositories/nl-two/eag', await t.token('import')).expect(403);
      await get('/export/repositories/nl-two/eag', await t.token('ops')).expect(200);
      await get(SKOS, null).expect(401);
      await get(SKOS, portalToken).expect(200);
    });
  });

  describe('missing, deleted and moved items', () => {
    it('answers 404 for an unknown id and for an item the export is not of', async () => {
      const unknown = await get('/export/agents/nobody/eac').expect(404);
      expect(JSON.stringify(unknown.body)).toContain('nobody');
      await get('/export/agents/nl-two/eac').expect(404);
      await get(`/export/repositories/${VOCABULARY}/eag`).expect(404);
      await get('/export/vocabularies/nl-two/skos').expect(404);
    });

    it('answers 410 for an item an import deleted', async () => {
      const gone = await get('/export/repositories/nl-gone/eag').expect(410);
      expect(JSON.stringify(gone.body)).toContain('2026-01-02');
    });

    it('answers 301 to the same export of the new id, with the query, for a moved item', async () => {
      const moved = await get('/export/repositories/nl-old/eag?lang=deu').expect(301);
      expect(moved.headers.location).toMatch(/\/export\/repositories\/nl-two\/eag\?lang=deu$/);
    });
  });

  describe('lang', () => {
    it('writes the description in the language asked for, English by default, the first otherwise', async () => {
      const english = await get('/export/repositories/nl-two/eag').expect(200);
      expect(english.text).toContain('<autform>The Archive</autform>');
      for (const lang of ['deu', 'de', 'ger']) {
        const german = await get(`/export/repositories/nl-two/eag?lang=${lang}`).expect(200);
        expect(german.text).toContain('<autform>Das Archiv</autform>');
        expect(german.text).toContain('languageCode="deu"');
      }
      const other = await get('/export/repositories/nl-two/eag?lang=fra').expect(200);
      expect(other.text).toContain('<autform>The Archive</autform>');
    });

    it('refuses a lang that is no language code', async () => {
      const response = await get('/export/repositories/nl-two/eag?lang=klingonish').expect(400);
      expect(JSON.stringify(response.body)).toContain('lang');
    });
  });

  describe('SKOS content negotiation', () => {
    it.each([
      [undefined, 'text/turtle'],
      ['*/*', 'text/turtle'],
      ['text/turtle', 'text/turtle'],
      ['application/rdf+xml', 'application/rdf+xml'],
      ['application/n-triples', 'application/n-triples'],
      ['application/ld+json', 'application/ld+json'],
      ['application/rdf+xml;q=0.5, application/n-triples', 'application/n-triples'],
      ['text/html, application/*;q=0.8', 'application/rdf+xml'],
    ])('Accept %s gives %s', async (accept, mediaType) => {
      const test = get(SKOS);
      const response = await (accept === undefined ? test : test.set('Accept', accept)).expect(200);
      expect(response.headers['content-type']).toBe(`${mediaType}; charset=utf-8`);
      expect(response.headers.vary).toMatch(/Accept/);
    });

    it('lets the format parameter override Accept', async () => {
      const response = await get(`${SKOS}?format=JSON-LD`).set('Accept', 'text/turtle').expect(200);
      expect(response.headers['content-type']).toBe('application/ld+json; charset=utf-8');
      const document = JSON.parse(response.text) as { '@id': string }[] | { '@graph': { '@id': string }[] };
      const nodes = Array.isArray(document) ? document : document['@graph'];
      expect(nodes.map((node) => node['@id'])).toContain('http://www.my.com/#canals');
      const turtle = await get(`${SKOS}?format=ttl`).set('Accept', 'application/ld+json').expect(200);
      expect(turtle.text).toContain('skos:prefLabel "canals"@en');
    });

    it('answers 406 for a syntax it does not write', async () => {
      const byAccept = await get(SKOS).set('Accept', 'application/pdf').expect(406);
      expect(JSON.stringify(byAccept.body)).toContain('text/turtle');
      await get(SKOS).set('Accept', 'text/turtle;q=0').expect(406);
      await get(`${SKOS}?format=RDF/YAML`).expect(406);
    });
  });

  it('describes every export in the OpenAPI document, with its answers', async () => {
    const document = await request(t.server).get('/openapi.json').expect(200);
    const paths = document.body.paths as Record<string, { get?: { responses: Record<string, unknown> } }>;
    for (const path of [
      '/export/repositories/{id}/eag',
      '/export/agents/{id}/eac',
      '/export/vocabularies/{id}/skos',
    ]) {
      expect(Object.keys(paths[path]?.get?.responses ?? {})).toEqual(
        expect.arrayContaining(['200', '301', '401', '403', '404', '410']),
      );
    }
    expect(Object.keys(paths['/export/vocabularies/{id}/skos'].get?.responses ?? {})).toContain('406');
    expect(Object.keys(paths['/export/agents/{id}/eac'].get?.responses ?? {})).toContain('400');
  });

  // Last: on Neo4j a second app empties the one test database the others read.
  it('serves everyone with PORTAL_AUTH=off', async () => {
    const open = await createTestApp({ env: { PORTAL_AUTH: 'off' } });
    try {
      await addNamedItem(open.store, 'CvocVocabulary', VOCABULARY);
      await request(open.server).get(SKOS).expect(200);
      await request(open.server).get('/export/agents/nobody/eac').expect(404);
    } finally {
      await open.close();
    }
  });
});

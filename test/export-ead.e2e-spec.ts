import request from 'supertest';
import yauzl, { Entry } from 'yauzl';
import { tombstoneRepository } from '../src/graph/records/tombstone-repository';
import { addDutchRepository, expectValid, exportUnit, importEad } from './support/ead-export';
import { ehriFixture, HIERARCHICAL_EAD_IDS } from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { OpenApiAnswers } from './support/openapi-answers';
import { createTestApp } from './support/test-app';

/** The entries of a ZIP, by name, as text. */
function unzip(zip: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error);
      const entries = new Map<string, string>();
      file.on('entry', (entry: Entry) => {
        file.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

function binary(test: request.Test): request.Test {
  return test.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

const [TOP, CHILD, , , LEAF] = HIERARCHICAL_EAD_IDS;

/** A finding aid with the time of its export blanked, to compare two exports of the same unit. */
function withoutTimes(xml: string | undefined): string | undefined {
  return xml?.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'T').replace(/normal="\d{8}"/g, 'normal=""');
}

describe('GET /export/ead… and /export/repositories/{id}/ead…', () => {
  let t: ImportTestApp;
  let portal: string;
  let ops: string;

  beforeAll(async () => {
    t = await createImportTestApp();
    portal = await t.token('portal');
    ops = await t.token('ops');
    await addDutchRepository(t, 'r1');
    await importEad(t, 'r1', ehriFixture('hierarchical-ead.xml'));
    await importEad(t, 'r1', ehriFixture('ead.xml'));
    // The same unit described in English and in German.
    await addDutchRepository(t, 'r2');
    await importEad(t, 'r2', ehriFixture('single-ead-multilang-eng.xml'));
    await importEad(t, 'r2', ehriFixture('single-ead-multilang-deu.xml'), { 'allow-update': 'true' });
    // Four imports on a Neo4j server just started take longer than a test's default minute.
  }, 180_000);
  afterAll(() => t.close());

  const get = (path: string, token?: string) => {
    const test = request(t.server).get(path);
    return token === undefined ? test : test.set('Authorization', `Bearer ${token}`);
  };

  it('writes a unit with every unit below it, nested as they are stored', async () => {
    const xml = await exportUnit(t, portal, 'ead', TOP);
    expect(
      xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<ead xmlns="urn:isbn:1-931666-22-9"'),
    ).toBe(true);
    expect(xml).toContain('<archdesc level="');
    expect(xml).toMatch(/<dsc>\s*<c01[^>]*>\s*<did>\s*<unitid>C00001<\/unitid>/);
    expect(xml).toMatch(/<c03[^>]*>\s*<did>\s*<unitid>C00002-2<\/unitid>/);
    await expectValid('ead.xsd', xml);
    const part = await exportUnit(t, portal, 'ead', CHILD);
    expect(part).toMatch(/<archdesc[^>]*>\s*<did>\s*<unitid>C00001<\/unitid>/);
    expect(part).not.toContain('>Ctop_level_fonds</unitid>');
  });

  it('answers with the right type and language, for the portal and the ops roles alike', async () => {
    for (const token of [portal, ops]) {
      const response = await get(`/export/ead3/${LEAF}`, token).expect(200);
      expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(response.headers['content-language']).toBe('eng');
    }
  });

  it('asks for a token of role portal or ops', async () => {
    await get(`/export/ead/${TOP}`).expect(401);
    await get(`/export/ead/${TOP}`, await t.token('import')).expect(403);
    await get('/export/repositories/r1/ead', 'not-a-token').expect(401);
  });

  it('answers 404 for an unknown id or an item of another type, 410 and 301 as the portal does', async () => {
    expect((await get('/export/ead/nl-r1-nothing', portal).expect(404)).body.message).toContain(
      'nl-r1-nothing',
    );
    await get('/export/ead/r1', portal).expect(404);
    await get(`/export/repositories/${TOP}/ead`, portal).expect(404);
    await t.store.write((tx) =>
      tombstoneRepository.put(tx, [
        { itemId: 'nl-r1-gone', removed: '2026-01-01T00:00:00Z' },
        { itemId: 'nl-r1-old', removed: '2026-01-01T00:00:00Z', movedTo: LEAF },
      ]),
    );
    await get('/export/ead3/nl-r1-gone', portal).expect(410);
    const moved = await get('/export/ead3/nl-r1-old?lang=eng', portal).expect(301);
    expect(moved.headers.location).toMatch(new RegExp(`/export/ead3/${LEAF}\\?lang=eng$`));
  });

  it('writes the descriptions in the language lang names, else in the first', async () => {
    const [unit] = (await t.store.read((tx) => tx.subtree('r2'))).map((entry) => entry.id);
    const german = await exportUnit(t, portal, 'ead', unit, 'de');
    expect(german).toContain('<language langcode="deu">');
    expect(german).toContain('EAD-Artikel testen');
    const english = await exportUnit(t, portal, 'ead', unit, 'eng');
    expect(english).toContain('<language langcode="eng">');
    expect(english).not.toContain('EAD-Artikel testen');
    // No French description: the first one.
    expect(await exportUnit(t, portal, 'ead', unit, 'fra')).toContain('<unittitle>');
    const refused = await get(`/export/ead/${unit}?lang=klingon`, portal).expect(400);
    expect(refused.body.message).toContain('klingon');
  });

  it.each(['ead', 'ead3'] as const)(
    'zips one %s file per top-level unit of a repository',
    async (version) => {
      const response = await binary(get(`/export/repositories/r1/${version}`, portal)).expect(200);
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="r1-${version}.zip"`);
      const entries = await unzip(response.body as Buffer);
      expect([...entries.keys()]).toEqual([`${TOP}.xml`, 'nl-r1-test_doc.xml']);
      expect(withoutTimes(entries.get(`${TOP}.xml`))).toBe(
        withoutTimes(await exportUnit(t, portal, version, TOP)),
      );
      for (const xml of entries.values()) await expectValid(version === 'ead' ? 'ead.xsd' : 'ead3.xsd', xml);
    },
  );

  it('answers as the OpenAPI document describes', async () => {
    const answers = new OpenApiAnswers((await request(t.server).get('/openapi.json').expect(200)).body);
    const route = '/export/ead/{unitId}';
    answers.check('get', route, await get(`/export/ead/${TOP}`, portal));
    answers.check('get', '/export/ead3/{unitId}', await get(`/export/ead3/${TOP}`, portal));
    answers.check('get', route, await get(`/export/ead/${TOP}?lang=xx-nothing`, portal));
    answers.check('get', route, await get(`/export/ead/${TOP}`));
    answers.check('get', route, await get('/export/ead/nl-r1-nothing', portal));
    answers.check(
      'get',
      '/export/repositories/{id}/ead',
      await get('/export/repositories/nothing/ead', portal),
    );
  });

  it('answers an empty ZIP for a repository without units', async () => {
    await addDutchRepository(t, 'r3');
    const response = await binary(get('/export/repositories/r3/ead', ops)).expect(200);
    expect((await unzip(response.body as Buffer)).size).toBe(0);
  });
});

// An app of its own, after the other's: on Neo4j a new test app empties the one test database.
describe('GET /export/… with PORTAL_AUTH=off', () => {
  it('serves everyone, without a token', async () => {
    const open = await createTestApp({ env: { PORTAL_AUTH: 'off' } });
    try {
      await request(open.server).get('/export/ead/missing').expect(404);
      await request(open.server).get('/export/repositories/missing/ead3').expect(404);
    } finally {
      await open.close();
    }
  });
});

import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { addRepository, findingAid, importInto, unit } from './support/oai-fixtures';
import { OpenApiAnswers } from './support/openapi-answers';
import { validateAgainst } from './support/xml-schemas';

/** `GET /export/{id}/dc` through the real app and store: the record, and the portal's answers for ids it has not. */
describe('GET /export/{id}/dc', () => {
  let t: ImportTestApp;
  let portal: string;
  let synced: Record<string, unknown>;
  /** `GET path` with a token, the portal one unless given; none with null. */
  const get = (path: string, token: string | null = portal) => {
    const call = request(t.server).get(path);
    return token === null ? call : call.set('Authorization', `Bearer ${token}`);
  };

  beforeAll(async () => {
    t = await createImportTestApp();
    portal = await t.token('portal');
    const repository = await addRepository(t, 'nl', 'r1');
    await importInto(t, 'ead', repository, findingAid(unit('F', unit('A'), unit('B'), unit('C'))));
    // B moves below A; C is gone.
    synced = await importInto(t, 'ead-sync', repository, findingAid(unit('F', unit('A', unit('B')))));
  });
  afterAll(() => t?.close());

  it("writes a unit's description as oai_dc, valid against its schema", async () => {
    const response = await get('/export/nl-r1-f-a/dc').expect(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<oai_dc:dc /);
    for (const element of [
      '<dc:identifier>A</dc:identifier>',
      '<dc:title>Unit A</dc:title>',
      '<dc:publisher>City Archives r1</dc:publisher>',
      '<dc:description xml:lang="en">Papers of unit A</dc:description>',
      '<dc:subject>Deportation</dc:subject>',
      '<dc:coverage>Amsterdam</dc:coverage>',
    ]) {
      expect(response.text).toContain(element);
    }
    const validation = await validateAgainst('oai_dc.xsd', response.text);
    expect(validation.errors).toEqual([]);
  });

  it('writes any portal item: a repository, a country', async () => {
    const repository = await get('/export/nl-r1/dc?lang=eng').expect(200);
    expect(repository.text).toContain('<dc:title>City Archives r1</dc:title>');
    const country = await get('/export/nl/dc').expect(200);
    expect(country.text).toContain('<dc:title>Netherlands</dc:title>');
    expect((await validateAgainst('oai_dc.xsd', country.text)).valid).toBe(true);
  });

  it('answers 301, 410 and 404 as the portal does, and 400 for a lang that is no language', async () => {
    expect(synced).toMatchObject({ deleted: ['nl-r1-f-c'], moved: { 'nl-r1-f-b': 'nl-r1-f-a-b' } });
    const moved = await get('/export/nl-r1-f-b/dc?lang=eng').expect(301);
    expect(moved.headers.location).toBe('http://localhost:3000/export/nl-r1-f-a-b/dc?lang=eng');
    expect((await get('/export/nl-r1-f-c/dc').expect(410)).body.message).toMatch(/was deleted on/);
    expect((await get('/export/nowhere/dc').expect(404)).body.message).toBe('No item with id "nowhere"');
    expect((await get('/export/nl-r1-f/dc?lang=klingon').expect(400)).body.message).toMatch(/lang=/);
  });

  it('asks for a token of role portal or ops', async () => {
    await get('/export/nl-r1-f/dc', null).expect(401);
    await get('/export/nl-r1-f/dc', t.importToken).expect(403);
    await get('/export/nl-r1-f/dc', await t.token('ops')).expect(200);
  });

  it('answers as the OpenAPI document describes the route', async () => {
    const openApi = new OpenApiAnswers((await request(t.server).get('/openapi.json')).body);
    const operation = openApi.document.paths['/export/{id}/dc'].get as unknown as { security: unknown[] };
    expect(operation.security).toEqual([{ portal: [] }, { ops: [] }]);
    for (const [path, token] of [
      ['/export/nl-r1-f/dc', portal],
      ['/export/nl-r1-f-c/dc', portal],
      ['/export/nowhere/dc', portal],
      ['/export/nl-r1-f/dc?lang=x', portal],
      ['/export/nl-r1-f/dc', null],
      ['/export/nl-r1-f/dc', t.importToken],
    ] as const) {
      openApi.check('get', '/export/{id}/dc', await get(path, token));
    }
  });
});

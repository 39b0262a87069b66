import request from 'supertest';
import { addReferenceRepository, ehriFixture, importEadIntoR1 } from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';

const ORIGINAL = ehriFixture('ead.xml').toString('utf8');
/** ead.xml with its title changed, its extent removed and a subject access point added. */
const REVISED = ORIGINAL.replace(
  '<unittitle encodinganalog="3.1.2">Test EAD Item</unittitle>',
  '<unittitle>Revised Item</unittitle>',
)
  .replace('<extent encodinganalog="3.1.5">167 files</extent>', '')
  .replace('</archdesc>', '<controlaccess><subject>Added subject</subject></controlaccess></archdesc>');

/** What an update changed, as stored import logs keep it and dry runs answer it. */
describe('import change records', () => {
  let t: ImportTestApp;
  let ops: string;

  beforeEach(async () => {
    t = await createImportTestApp();
    await addReferenceRepository(t);
    ops = await t.token('ops');
    await importEadIntoR1(t, ORIGINAL).expect(201);
  });
  afterEach(() => t.close());

  const changes = (logId: string, query: Record<string, string> = {}) =>
    request(t.server).get(`/import/logs/${logId}/changes`).query(query).set('Authorization', `Bearer ${ops}`);

  const expectedChanges = {
    item: 'nl-r1-test_doc',
    type: 'DocumentaryUnit',
    changes: expect.arrayContaining([
      {
        path: 'describes[nl-r1-test_doc.eng-c00001_eng].extentAndMedium',
        change: 'removed',
        before: '167 files',
      },
      {
        path: 'describes[nl-r1-test_doc.eng-c00001_eng].name',
        change: 'changed',
        before: 'Test EAD Item',
        after: 'Revised Item',
      },
      {
        path: expect.stringMatching(/^describes\[nl-r1-test_doc\.eng-c00001_eng\]\.relatesTo\[/),
        change: 'added',
        after: { type: 'AccessPoint', data: { type: 'subject', name: 'Added subject' } },
      },
    ]),
  };

  it('keeps what a committed update changed, before and after, served by item and page', async () => {
    const answer = await importEadIntoR1(t, REVISED, { 'allow-update': 'true' }).expect(201);
    expect(answer.body).toMatchObject({ updated: 1 });
    expect(answer.body.changes).toBeUndefined();

    const page = await changes(answer.body.event).expect(200);
    expect(page.body).toEqual({ total: 1, page: 1, limit: 20, truncated: false, items: [expectedChanges] });
    const log = await request(t.server)
      .get(`/import/logs/${answer.body.event}`)
      .set('Authorization', `Bearer ${ops}`)
      .expect(200);
    expect(log.body.changes).toEqual({ count: 1, truncated: false });

    expect((await changes(answer.body.event, { item: 'nl-r1-test_doc' }).expect(200)).body.total).toBe(1);
    expect((await changes(answer.body.event, { item: 'no-such-item' }).expect(200)).body).toMatchObject({
      total: 0,
      items: [],
    });
    expect((await changes(answer.body.event, { page: '2' }).expect(200)).body.items).toEqual([]);
  });

  it('answers a dry run with what it would change, and stores nothing', async () => {
    const dry = await t
      .post('ead', { scope: 'r1', 'allow-update': 'true' })
      .set('Content-Type', 'application/xml')
      .send(REVISED)
      .expect(201);
    expect(dry.body).toMatchObject({ updated: 1, event: null });
    expect(dry.body.changes).toEqual({ count: 1, truncated: false, items: [expectedChanges] });
    const stored = (await t.items(['nl-r1-test_doc'])).get('nl-r1-test_doc');
    expect(stored?.relations.describes?.[0].data.name).toBe('Test EAD Item');
  });

  it('keeps no change records for an import that updated nothing', async () => {
    const again = await importEadIntoR1(t, ORIGINAL).expect(201);
    expect(again.body).toMatchObject({ unchanged: 1, updated: 0 });
    expect((await changes(again.body.event).expect(200)).body).toMatchObject({ total: 0, truncated: false });
  });

  it('answers 404 for the changes of no stored log, and 403 for a token that is not ops', async () => {
    await changes('no-such-log').expect(404);
    await request(t.server)
      .get('/import/logs/whatever/changes')
      .set('Authorization', `Bearer ${t.importToken}`)
      .expect(403);
  });
});

describe('import change records past their cap', () => {
  let t: ImportTestApp;
  afterEach(() => t.close());

  it('stops recording at IMPORT_CHANGES_MAX_BYTES and says the log was cut', async () => {
    t = await createImportTestApp({ IMPORT_CHANGES_MAX_BYTES: '100' });
    await addReferenceRepository(t);
    const ops = await t.token('ops');
    await importEadIntoR1(t, ORIGINAL).expect(201);
    const answer = await importEadIntoR1(t, REVISED, { 'allow-update': 'true' }).expect(201);
    expect(answer.body).toMatchObject({ updated: 1, updated_keys: { '-': ['nl-r1-test_doc'] } });
    const page = await request(t.server)
      .get(`/import/logs/${answer.body.event}/changes`)
      .set('Authorization', `Bearer ${ops}`)
      .expect(200);
    expect(page.body).toEqual({ total: 0, page: 1, limit: 20, truncated: true, items: [] });
  });
});

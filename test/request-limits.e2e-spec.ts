import request from 'supertest';
import { addReferenceRepository, importEadIntoR1 } from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/**
 * A finding aid whose units nest `depth` deep (the `archdesc` is depth 1), one element a line, so
 * that the unit at depth n starts on line n + 3. `unitId` gives each unit's identifier.
 */
function nestedEad(depth: number, unitId: (level: number) => string = (level) => `u${level}`): string {
  const lines = ['<ead>', '<eadheader><eadid>deep</eadid></eadheader>'];
  lines.push(`<archdesc level="fonds"><did><unitid>${unitId(1)}</unitid></did><dsc>`);
  for (let level = 2; level <= depth; level++) {
    lines.push(`<c><did><unitid>${unitId(level)}</unitid></did>`);
  }
  for (let level = 2; level <= depth; level++) lines.push('</c>');
  lines.push('</dsc></archdesc>', '</ead>');
  return lines.join('\n');
}

describe('Bounded work per request: the import limits', () => {
  let t: ImportTestApp;

  beforeAll(async () => {
    t = await createImportTestApp({ IMPORT_MAX_DEPTH: '20', IMPORT_MAX_ID_LENGTH: '200' });
    await addReferenceRepository(t);
  });
  afterAll(() => t.close());

  const stored = async (id: string) => (await t.store.read((tx) => tx.getItems([id]))).has(id);

  it('imports units as deep as the limit, again unchanged', async () => {
    const answer = await importEadIntoR1(t, nestedEad(20), { tag: 'deep.xml' }).expect(201);
    expect(answer.body.created).toBe(20);
    const again = await importEadIntoR1(t, nestedEad(20), { tag: 'deep.xml' }).expect(201);
    expect(again.body).toMatchObject({ created: 0, unchanged: 20 });
  });

  it.each([
    ['a dry run', {}],
    ['a commit', { commit: 'true' }],
  ])('refuses %s one level deeper, naming the limit, the tag and the line', async (_name, query) => {
    const ead = nestedEad(21, (level) => `d${level}`);
    const answer = await importEadIntoR1(t, ead, { tag: 'deeper.xml', commit: 'false', ...query });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      status: 400,
      error: 'Bad Request',
      details: {
        message: expect.stringContaining(
          'Units are nested deeper than the limit of 20 (IMPORT_MAX_DEPTH): in deeper.xml at line 23',
        ),
        tag: 'deeper.xml',
        line: 23,
      },
    });
    expect(await stored('nl-r1-d1')).toBe(false);
  });

  it('refuses thousands of levels at once, in a dry run, and keeps serving', async () => {
    const started = Date.now();
    const answer = await importEadIntoR1(t, nestedEad(3000), { commit: 'false' }).expect(400);
    expect(answer.body.details.message).toContain('limit of 20 (IMPORT_MAX_DEPTH)');
    // Refused at the 21st level, not after the 3,000 were read into memory.
    expect(Date.now() - started).toBeLessThan(5000);
    await request(t.server).get('/health').expect(200);
  });

  it('refuses an id longer than the limit where its unit is, before it is stored', async () => {
    const long = 'x'.repeat(100 * 1024);
    const answer = await importEadIntoR1(
      t,
      nestedEad(3, (level) => (level === 2 ? long : `l${level}`)),
      {
        tag: 'long.xml',
      },
    ).expect(400);
    expect(answer.body.details).toMatchObject({
      message: expect.stringMatching(
        /^An item id of 102409 characters is longer than the limit of 200 \(IMPORT_MAX_ID_LENGTH\): nl-r1-l1-x+…: in long.xml at line 4/,
      ),
      tag: 'long.xml',
      line: 4,
    });
    expect(await stored('nl-r1-l1')).toBe(false);
  });

  it('refuses a long id from a format that nests nothing (a CSV table), naming the tag', async () => {
    const table = `objectIdentifier,name\n${'a'.repeat(300)},Long\n`;
    const answer = await t
      .post('csv', { importer: 'units', scope: 'r1', commit: 'true', tag: 'units.csv' })
      .set('Content-Type', 'text/csv')
      .send(table)
      .expect(400);
    expect(answer.body.details).toMatchObject({
      message: expect.stringContaining('longer than the limit of 200 (IMPORT_MAX_ID_LENGTH)'),
      tag: 'units.csv',
    });
  });
});

describe('Bounded work per request: the portal query limits', () => {
  let t: ImportTestApp;
  let token: string;

  beforeAll(async () => {
    t = await createImportTestApp({ PORTAL_MAX_QUERY_TERMS: '8', PORTAL_MAX_QUERY_LENGTH: '120' });
    token = await t.token('portal');
  });
  afterAll(() => t.close());

  const search = (q: string) =>
    request(t.server).get('/api/v1/search').query({ q }).set('Authorization', `Bearer ${token}`);

  it('answers a query of as many words as the limit', async () => {
    await search('one two three four five six seven eight').expect(200);
  });

  it.each([
    [
      'words',
      'one two three four five six seven eight nine',
      '9 words, more than the limit of 8 (PORTAL_MAX_QUERY_TERMS)',
    ],
    ['characters', 'x'.repeat(121), '121 characters, more than the limit of 120 (PORTAL_MAX_QUERY_LENGTH)'],
    [
      'words, however separated',
      Array.from({ length: 2000 }, (_, n) => n).join(','),
      'PORTAL_MAX_QUERY_LENGTH',
    ],
  ])('refuses too many %s as a JSON:API error on the q parameter', async (_what, q, detail) => {
    const answer = await search(q).expect(400);
    expect(answer.headers['content-type']).toContain('application/vnd.api+json');
    expect(answer.body.errors[0]).toMatchObject({
      status: '400',
      detail: expect.stringContaining(detail),
      source: { parameter: 'q' },
    });
  });
});

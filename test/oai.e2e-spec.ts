import request from 'supertest';
import { encodeToken } from '../src/export/oai/oai-token';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { OpenApiAnswers } from './support/openapi-answers';
import { addRepository, findingAid, importInto, unit } from './support/oai-fixtures';
import {
  errorCode,
  expectValidOai,
  getOai,
  harvest,
  headersOf,
  requestAttributes,
  tokenOf,
} from './support/oai-client';

/**
 * The OAI-PMH provider through the real app and store: every verb, sets, deleted records,
 * resumption tokens while imports write, and every error condition, each answer valid against
 * the protocol's schema. Pages of two headers, so that every list has several.
 */
describe('OAI-PMH at /oai', () => {
  let t: ImportTestApp;
  let portal: string;
  const oai = (query: string) => getOai(t.server, query, portal);

  beforeAll(async () => {
    t = await createImportTestApp({ OAI_PAGE_SIZE: '2' });
    portal = await t.token('portal');
  });
  afterAll(() => t?.close());

  it('answers noSetHierarchy and noRecordsMatch while no repository holds units', async () => {
    const sets = await oai('verb=ListSets');
    expect(errorCode(sets)).toBe('noSetHierarchy');
    const records = await oai('verb=ListRecords&metadataPrefix=oai_dc');
    expect(errorCode(records)).toBe('noRecordsMatch');
    expect(requestAttributes(records)).toEqual({ verb: 'ListRecords', metadataPrefix: 'oai_dc' });
    await expectValidOai(sets);
    await expectValidOai(records);
  });

  describe('with units in three repositories of two countries', () => {
    const live = ['de-r2-g', 'de-r2-g-h', 'nl-r1-f', 'nl-r1-f-a', 'nl-r1-f-a-k', 'nl-r3-x'];
    let beforeChanges: string;

    beforeAll(async () => {
      const [r1, r2, r3] = [
        await addRepository(t, 'nl', 'r1'),
        await addRepository(t, 'de', 'r2'),
        await addRepository(t, 'nl', 'r3'),
      ];
      await importInto(t, 'ead', r1, findingAid(unit('F', unit('A', unit('K')), unit('B'))));
      await importInto(t, 'ead', r2, findingAid(unit('G', unit('H'))));
      await importInto(t, 'ead', r3, findingAid(unit('X')));
      const synced = await importInto(t, 'ead-sync', r1, findingAid(unit('F', unit('A', unit('K')))));
      expect(synced.deleted).toEqual(['nl-r1-f-b']);
      beforeChanges = await nextSecond();
    });

    it('identifies itself', async () => {
      const xml = await oai('verb=Identify');
      await expectValidOai(xml);
      expect(xml).toContain('<baseURL>http://localhost:3000/oai</baseURL>');
      expect(xml).toContain('<deletedRecord>persistent</deletedRecord>');
      expect(xml).toContain('<granularity>YYYY-MM-DDThh:mm:ssZ</granularity>');
      const earliest = /<earliestDatestamp>(.*)<\/earliestDatestamp>/.exec(xml)![1];
      expect(earliest < beforeChanges).toBe(true);
    });

    it('lists the formats of every item, of a top-level unit, and of a unit below another', async () => {
      const prefixes = (xml: string) => [...xml.matchAll(/<metadataPrefix>(\w+)</g)].map((match) => match[1]);
      const all = await oai('verb=ListMetadataFormats');
      await expectValidOai(all);
      expect(prefixes(all)).toEqual(['oai_dc', 'ead', 'ead3']);
      expect(prefixes(await oai('verb=ListMetadataFormats&identifier=nl-r1-f'))).toEqual([
        'oai_dc',
        'ead',
        'ead3',
      ]);
      expect(prefixes(await oai('verb=ListMetadataFormats&identifier=nl-r1-f-a'))).toEqual(['oai_dc']);
      expect(errorCode(await oai('verb=ListMetadataFormats&identifier=nl-r1-f-b'))).toBe('noMetadataFormats');
      const unknown = await oai('verb=ListMetadataFormats&identifier=nl-r1');
      expect(errorCode(unknown)).toBe('idDoesNotExist');
      await expectValidOai(unknown);
    });

    it('lists the sets of countries and of repositories that hold units, a page at a time', async () => {
      const first = await oai('verb=ListSets');
      await expectValidOai(first);
      const specs = (xml: string) => [...xml.matchAll(/<setSpec>(.*?)<\/setSpec>/g)].map((match) => match[1]);
      expect(specs(first)).toEqual(['de', 'nl', 'de:de-r2', 'nl:nl-r1']);
      expect(first).toContain('<setName>City Archives r1</setName>');
      const token = tokenOf(first)!;
      expect(token.cursor).toBe('0');
      const second = await oai(`verb=ListSets&resumptionToken=${token.value}`);
      await expectValidOai(second);
      expect(specs(second)).toEqual(['nl:nl-r3']);
      expect(tokenOf(second)).toEqual({ value: '', cursor: '4' });
    });

    it('lists every unit in id order, then the deleted ones, with their sets', async () => {
      const { headers, pages } = await harvest(
        t.server,
        'verb=ListIdentifiers&metadataPrefix=oai_dc',
        portal,
      );
      expect(pages).toHaveLength(4);
      expect(headers.map((header) => header.id)).toEqual([...live, 'nl-r1-f-b']);
      expect(headers.find((header) => header.id === 'nl-r1-f-a-k')).toMatchObject({
        sets: ['nl', 'nl:nl-r1'],
        deleted: false,
      });
      expect(headers[headers.length - 1]).toMatchObject({ sets: ['nl', 'nl:nl-r1'], deleted: true });
      expect(pages.map((page) => tokenOf(page)?.cursor)).toEqual(['0', '2', '4', '6']);
    });

    it('keeps the units and deletions of a set', async () => {
      const ids = async (query: string) =>
        (await harvest(t.server, query, portal)).headers.map(
          (header) => `${header.id}${header.deleted ? ' (deleted)' : ''}`,
        );
      expect(await ids('verb=ListIdentifiers&metadataPrefix=oai_dc&set=de')).toEqual([
        'de-r2-g',
        'de-r2-g-h',
      ]);
      expect(await ids('verb=ListIdentifiers&metadataPrefix=oai_dc&set=nl:nl-r1')).toEqual([
        'nl-r1-f',
        'nl-r1-f-a',
        'nl-r1-f-a-k',
        'nl-r1-f-b (deleted)',
      ]);
      expect(await ids('verb=ListIdentifiers&metadataPrefix=oai_dc&set=nl:nl-r3')).toEqual(['nl-r3-x']);
      // A country of none of the repositories is a set with nothing in it.
      expect(errorCode(await oai('verb=ListIdentifiers&metadataPrefix=oai_dc&set=fr'))).toBe(
        'noRecordsMatch',
      );
      for (const set of ['zz', 'de:nl-r1', 'nl:nowhere', 'nl:nl-r1:x']) {
        const xml = await oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&set=${set}`);
        expect(errorCode(xml)).toBe('badArgument');
        expect(requestAttributes(xml)).toEqual({});
      }
    });

    it('writes Dublin Core records, valid against oai_dc.xsd inside the answer', async () => {
      const { pages } = await harvest(
        t.server,
        'verb=ListRecords&metadataPrefix=oai_dc&set=nl:nl-r1',
        portal,
      );
      const all = pages.join('');
      expect(all).toContain('<dc:title>Unit A</dc:title>');
      expect(all).toContain('<dc:publisher>City Archives r1</dc:publisher>');
      expect(all).toMatch(/<record><header status="deleted"><identifier>nl-r1-f-b<\/identifier>/);
    });

    it('writes whole finding aids in ead and ead3, top-level units only', async () => {
      for (const prefix of ['ead', 'ead3']) {
        const { headers, pages } = await harvest(
          t.server,
          `verb=ListRecords&metadataPrefix=${prefix}`,
          portal,
        );
        expect(headers.map((header) => header.id)).toEqual(['de-r2-g', 'nl-r1-f', 'nl-r3-x', 'nl-r1-f-b']);
        const fonds = pages.find((page) => page.includes('<identifier>nl-r1-f</identifier>'))!;
        expect(fonds).toContain('Unit K');
      }
    });

    it('gets one record, a deleted one as a header, and refuses what it cannot give', async () => {
      const record = await oai('verb=GetRecord&identifier=nl-r1-f-a&metadataPrefix=oai_dc');
      await expectValidOai(record);
      expect(headersOf(record)).toEqual([
        { id: 'nl-r1-f-a', datestamp: expect.any(String), sets: ['nl', 'nl:nl-r1'], deleted: false },
      ]);
      expect(record).toContain('<dc:identifier>A</dc:identifier>');
      const deleted = await oai('verb=GetRecord&identifier=nl-r1-f-b&metadataPrefix=oai_dc');
      await expectValidOai(deleted);
      expect(headersOf(deleted)[0]).toMatchObject({ id: 'nl-r1-f-b', deleted: true });
      const cases: [string, string][] = [
        ['identifier=nl-r1-f-a&metadataPrefix=ead', 'cannotDisseminateFormat'],
        ['identifier=nl-r1-f&metadataPrefix=marc21', 'cannotDisseminateFormat'],
        ['identifier=nowhere&metadataPrefix=oai_dc', 'idDoesNotExist'],
        ['identifier=nl-r1&metadataPrefix=oai_dc', 'idDoesNotExist'],
      ];
      for (const [query, code] of cases) {
        const xml = await oai(`verb=GetRecord&${query}`);
        expect(errorCode(xml)).toBe(code);
        expect(requestAttributes(xml).verb).toBe('GetRecord');
        await expectValidOai(xml);
      }
    });

    it('answers badVerb and badArgument with the base URL alone', async () => {
      const cases: [string, string][] = [
        ['', 'badVerb'],
        ['verb=Harvest', 'badVerb'],
        ['verb=Identify&verb=Identify', 'badVerb'],
        ['verb=Identify&set=nl', 'badArgument'],
        ['verb=ListRecords', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=ead', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&from=2024-01-01&until=2024-01-02T00:00:00Z', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&from=2024-02-30', 'badArgument'],
        ['verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=x', 'badArgument'],
      ];
      for (const [query, code] of cases) {
        const xml = await oai(query);
        expect([query, errorCode(xml)]).toEqual([query, code]);
        expect(requestAttributes(xml)).toEqual({});
        await expectValidOai(xml);
      }
      expect(errorCode(await oai('verb=ListRecords&metadataPrefix=marc21'))).toBe('cannotDisseminateFormat');
    });

    it('refuses a token of another verb, one it did not make, and one past its time', async () => {
      const first = await oai('verb=ListIdentifiers&metadataPrefix=oai_dc');
      const { value } = tokenOf(first)!;
      expect(errorCode(await oai(`verb=ListRecords&resumptionToken=${value}`))).toBe('badResumptionToken');
      expect(errorCode(await oai('verb=ListRecords&resumptionToken=garbage'))).toBe('badResumptionToken');
      const list = {
        verb: 'ListIdentifiers' as const,
        metadataPrefix: 'oai_dc',
        cursor: { phase: 'live' as const },
      };
      const expired = encodeToken({ list, answered: 2 }, new Date(Date.now() - 1000));
      const xml = await oai(`verb=ListIdentifiers&resumptionToken=${expired}`);
      expect(errorCode(xml)).toBe('badResumptionToken');
      expect(xml).toMatch(/expired at/);
      expect(requestAttributes(xml)).toEqual({ verb: 'ListIdentifiers', resumptionToken: expired });
      await expectValidOai(xml);
    });

    it('answers by POST with a form too, and asks for a token of role portal or ops', async () => {
      const form = await request(t.server)
        .post('/oai')
        .set('Authorization', `Bearer ${portal}`)
        .type('form')
        .send('verb=GetRecord&identifier=nl-r3-x&metadataPrefix=oai_dc');
      expect(form.status).toBe(200);
      expect(headersOf(form.text).map((header) => header.id)).toEqual(['nl-r3-x']);
      const json = await request(t.server)
        .post('/oai')
        .set('Authorization', `Bearer ${portal}`)
        .send({ verb: 'Identify' });
      expect(json.status).toBe(415);
      expect((await request(t.server).get('/oai?verb=Identify')).status).toBe(401);
      const importer = await request(t.server)
        .get('/oai?verb=Identify')
        .set('Authorization', `Bearer ${t.importToken}`);
      expect(importer.status).toBe(403);
      expect(errorCode(await getOai(t.server, 'verb=Identify', await t.token('ops')))).toBeUndefined();
      const openApi = new OpenApiAnswers((await request(t.server).get('/openapi.json')).body);
      openApi.check('post', '/oai', form);
      openApi.check('post', '/oai', json);
      openApi.check('get', '/oai', importer);
      openApi.check(
        'get',
        '/oai',
        await request(t.server).get('/oai?verb=Nothing').set('Authorization', `Bearer ${portal}`),
      );
    });

    describe('after changes', () => {
      beforeAll(async () => {
        // A second later than beforeChanges, which until= includes whole.
        await nextSecond();
        await importInto(
          t,
          'ead-sync',
          'nl-r1',
          findingAid({ localId: 'F', title: 'Renamed F', children: [unit('A')] }),
          { 'allow-update': 'true' },
        );
      });

      it('lists what changed from a time on, the deletions too', async () => {
        const { headers } = await harvest(
          t.server,
          `verb=ListIdentifiers&metadataPrefix=oai_dc&from=${beforeChanges}`,
          portal,
        );
        expect(headers.map((header) => `${header.id}${header.deleted ? ' (deleted)' : ''}`)).toEqual([
          'nl-r1-f',
          'nl-r1-f-a-k (deleted)',
        ]);
        const earlier = await oai(`verb=ListIdentifiers&metadataPrefix=oai_dc&until=${beforeChanges}&set=nl`);
        expect(headersOf(earlier).map((header) => header.id)).toEqual(['nl-r1-f-a', 'nl-r3-x']);
        expect(errorCode(await oai('verb=ListIdentifiers&metadataPrefix=oai_dc&from=2999-01-01'))).toBe(
          'noRecordsMatch',
        );
      });

      it('goes on along a token while imports write, neither skipping nor repeating a unit', async () => {
        const first = await oai('verb=ListIdentifiers&metadataPrefix=oai_dc&set=nl');
        expect(headersOf(first).map((header) => header.id)).toEqual(['nl-r1-f', 'nl-r1-f-a']);
        // A unit sorting before the cursor, and one after it.
        await importInto(t, 'ead', 'nl-r1', findingAid(unit('E')));
        await importInto(t, 'ead', 'nl-r3', findingAid(unit('Y')));
        const rest = await harvest(
          t.server,
          `verb=ListIdentifiers&resumptionToken=${tokenOf(first)!.value}`,
          portal,
        );
        expect(rest.headers.map((header) => header.id)).toEqual([
          'nl-r3-x',
          'nl-r3-y',
          'nl-r1-f-a-k',
          'nl-r1-f-b',
        ]);
      });
    });
  });
});

/** Waits for the next whole second, and gives it as a datestamp: every change so far lies before it. */
async function nextSecond(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { addNamedItem } from '../src/named-items/named-item';
import { StoredItem } from '../src/graph/graph-store';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { EHRI_FIXTURES } from './support/fixture-paths';

const SIMPLE_CSV = readFileSync(path.join(EHRI_FIXTURES, 'simple.csv'));
const SIMPLE_IDS = ['nl-r1-kd1', 'nl-r1-kd2', 'nl-r1-kd3', 'nl-r1-kd4'];

describe('POST /import/csv', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
    // Repository r1 of the Netherlands, as in the reference's tests: its units' ids start nl-r1-.
    const repository: Bundle = { id: 'nl-r1', type: 'Repository', data: { identifier: 'r1' }, relations: {} };
    await t.store.write((tx) =>
      tx.putItems([{ bundle: repository, hash: itemHash(repository), edges: { hasCountry: ['nl'] } }]),
    );
  });
  afterEach(() => t.close());

  function importCsv(body: string | Buffer, query: Record<string, string> = {}) {
    return t
      .post('csv', { scope: 'nl-r1', commit: 'true', ...query })
      .set('Content-Type', 'text/csv')
      .send(body);
  }

  async function stored(id: string): Promise<StoredItem | undefined> {
    return (await t.store.read((tx) => tx.getItems([id]))).get(id);
  }

  async function onlyDescription(id: string): Promise<Bundle> {
    const descriptions = (await stored(id))?.bundle.relations.describes ?? [];
    expect(descriptions).toHaveLength(1);
    return descriptions[0];
  }

  describe('documentary units (the default)', () => {
    it('imports simple.csv into nl-r1 as four units held by the repository', async () => {
      const response = await importCsv(SIMPLE_CSV).expect(201);

      expect(response.body).toMatchObject({ created: 4, updated: 0, unchanged: 0, errors: {} });
      expect([...response.body.created_keys['-']].sort()).toEqual(SIMPLE_IDS);
      const kd3 = await stored('nl-r1-kd3');
      expect(kd3?.bundle.data).toEqual({ identifier: 'kd3' });
      expect(kd3?.edges).toMatchObject({ heldBy: ['nl-r1'], hasPermissionScope: ['nl-r1'] });
    });

    it('maps the columns as the reference does: languages and scripts as codes, cells split on ||', async () => {
      await importCsv(SIMPLE_CSV).expect(201);

      const description = await onlyDescription('nl-r1-kd3');
      expect(description.id).toBe('nl-r1-kd3.eng-kd3');
      expect(description.data).toMatchObject({
        identifier: 'kd3',
        sourceFileId: 'kd3',
        name: 'Photos catalogued and digitized by Kazerne Dossin. Collection.',
        languageCode: 'eng',
        languageOfMaterial: ['fra', 'nld', 'eng'],
        scriptOfMaterial: 'Latn',
        levelOfDescription: 'collection',
        // White space is normalised, as everywhere in the reference.
        extentAndMedium: '2 meters of acid free boxes containing 3,875 originals; 4,434 digitized images.',
        rulesAndConventions: 'EHRI Guidelines for description 1.0',
      });
      expect(Object.keys(description.data).some((field) => field.startsWith('IGNORE'))).toBe(false);
      expect(description.relations.hasDate?.map((date) => date.data)).toEqual([
        expect.objectContaining({ startDate: '1880-01-01', endDate: '2000-12-31', type: 'creation' }),
      ]);
      expect(description.relations.relatesTo?.map((point) => point.data)).toEqual([
        { type: 'creator', name: 'Kazerne Dossin' },
      ]);
    });

    it('finds the units unchanged when the table comes again', async () => {
      await importCsv(SIMPLE_CSV).expect(201);
      const again = await importCsv(SIMPLE_CSV).expect(201);

      expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    });

    it('changes nothing on a dry run', async () => {
      const response = await importCsv(SIMPLE_CSV, { commit: 'false' }).expect(201);

      expect(response.body).toMatchObject({ created: 4, event: null });
      expect(await stored('nl-r1-kd1')).toBeUndefined();
    });

    it('takes the lang parameter when the table gives no language', async () => {
      await importCsv('objectIdentifier,name\nu1,Une unité\n', { lang: 'fre' }).expect(201);

      expect((await onlyDescription('nl-r1-u1')).id).toBe('nl-r1-u1.fra');
    });

    it('takes other field and array separators', async () => {
      const body = 'objectIdentifier;name;languageOfMaterial\nu1;Een eenheid;Dutch|German\n';
      await importCsv(body, { 'field-separator': ';', 'array-separator': '|' }).expect(201);

      expect((await onlyDescription('nl-r1-u1')).data.languageOfMaterial).toEqual(['nld', 'deu']);
    });

    it('places a row under the unit its parentIdentifier names, continuing its id', async () => {
      const body = [
        'objectIdentifier,parentIdentifier,name',
        'C00002,,Series',
        'C00002-2,C00002,File in the series',
      ].join('\n');
      const response = await importCsv(body).expect(201);

      expect(response.body.created_keys['-']).toEqual(['nl-r1-c00002', 'nl-r1-c00002-2']);
      expect((await stored('nl-r1-c00002-2'))?.edges).toMatchObject({
        childOf: ['nl-r1-c00002'],
        hasPermissionScope: ['nl-r1-c00002'],
      });
      expect((await onlyDescription('nl-r1-c00002-2')).data).not.toHaveProperty('parentIdentifier');
    });

    it('finds a parent among the units already in the scope', async () => {
      await importCsv(SIMPLE_CSV).expect(201);
      await importCsv('objectIdentifier,parentIdentifier,name\nkd3-a,kd3,A folder of photos\n').expect(201);

      expect((await stored('nl-r1-kd3-a'))?.edges).toMatchObject({ childOf: ['nl-r1-kd3'] });
    });
  });

  describe('errors', () => {
    const WITH_BAD_ROWS = [
      'objectIdentifier,name,parentIdentifier',
      'u1,First unit,',
      ',Unit without identifier,',
      'u3,,',
      'u4,Orphan,nowhere',
      'u5,Too,many,cells',
    ].join('\n');

    it('refuses a row without identifier with 400 naming its row and column, and writes nothing', async () => {
      const response = await importCsv(WITH_BAD_ROWS).expect(400);

      expect(response.body.details).toEqual({
        message: 'CSV row 3, column objectIdentifier: missing: a unit needs an identifier',
        tag: '-',
        key: 'row 3',
      });
      expect(await stored('nl-r1-u1')).toBeUndefined();
    });

    it('skips every bad row in tolerant mode, naming each row and column', async () => {
      const response = await importCsv(WITH_BAD_ROWS, { tolerant: 'true' }).expect(201);

      expect(response.body).toMatchObject({ created: 1, created_keys: { '-': ['nl-r1-u1'] } });
      expect(response.body.errors).toEqual({
        'row 3': 'CSV row 3, column objectIdentifier: missing: a unit needs an identifier',
        'row 4': 'CSV row 4, column name: missing: a description needs a name',
        'row 5':
          'CSV row 5, column parentIdentifier: no unit with the identifier nowhere earlier in the table or in nl-r1',
        'row 6': 'CSV row 6: 4 cells, but the header names 3 columns',
      });
    });

    it('refuses the children of a refused row', async () => {
      const body = 'objectIdentifier,name,parentIdentifier\np1,,\nc1,Child,p1\n';
      const response = await importCsv(body, { tolerant: 'true' }).expect(201);

      expect(response.body.errors['row 3']).toBe(
        'CSV row 3, column parentIdentifier: parent unit p1 was not imported',
      );
    });

    it('refuses malformed CSV with 400 naming the row', async () => {
      const response = await importCsv('objectIdentifier,name\nu1,"unterminated\n').expect(400);

      expect(response.body.details).toMatchObject({
        key: 'row 2',
        message: expect.stringContaining('row 2'),
      });
    });

    it.each([
      [
        'a field separator of two characters',
        { 'field-separator': ';;' },
        /Field separator must be a single character/,
      ],
      [
        'a scope of the wrong type',
        { scope: 'nl' },
        /Scope nl is a Country; a CSV import of units takes a Repository or DocumentaryUnit/,
      ],
      [
        'an unknown importer',
        { importer: 'eu.ehri.project.importers.csv.NoSuchImporter' },
        /Class not found: eu\.ehri\.project\.importers\.csv\.NoSuchImporter/,
      ],
    ])('refuses %s', async (_what, query, message) => {
      const response = await importCsv(SIMPLE_CSV, query).expect(400);

      const details = response.body.details as string | { message: string };
      expect(typeof details === 'string' ? details : details.message).toMatch(message);
    });

    it('refuses a table without a header row', async () => {
      const response = await importCsv('\n\n').expect(400);

      expect(response.body.details.message).toBe('- has no header row');
    });

    it('refuses a column named __proto__, naming it, and imports nothing', async () => {
      const response = await importCsv('objectIdentifier,name,__proto__\nproto1,Proto,a||b\n').expect(400);

      expect(response.body.details).toMatchObject({
        message: 'The header row of - names column 3 __proto__, which no field may be called',
        key: 'row 1',
      });
      expect(await stored('nl-r1-proto1')).toBeUndefined();
    });
  });

  describe('other item types, chosen by importer', () => {
    it('imports repositories into a country (EagImporter)', async () => {
      const body = [
        'objectIdentifier,name,otherFormsOfName,address/street,address/municipality,address/email',
        'r9,Kazerne Dossin,KD||Dossin,Goswin de Stassartstraat 153,Mechelen,info@kazernedossin.eu',
      ].join('\n');
      const response = await importCsv(body, { scope: 'be', importer: 'EagImporter' }).expect(201);

      expect(response.body.created_keys).toEqual({ '-': ['be-r9'] });
      const repository = await stored('be-r9');
      expect(repository?.bundle).toMatchObject({ type: 'Repository', data: { identifier: 'r9' } });
      expect(repository?.edges).toMatchObject({ hasCountry: ['be'] });
      const description = await onlyDescription('be-r9');
      expect(description.data).toMatchObject({ name: 'Kazerne Dossin', otherFormsOfName: ['KD', 'Dossin'] });
      expect(description.relations.hasAddress?.[0].data).toEqual({
        street: 'Goswin de Stassartstraat 153',
        municipality: 'Mechelen',
        email: 'info@kazernedossin.eu',
      });
    });

    it('imports historical agents into an authoritative set (CsvHistoricalAgentImporter)', async () => {
      await addNamedItem(t.store, 'AuthoritativeSet', 'auths');
      const body =
        'id,name,otherFormsOfName,datesOfExistence\n381,Abwehr,Amt Ausland/Abwehr||Abwehr II,1920-1944\n';
      const response = await importCsv(body, {
        scope: 'auths',
        importer: 'eu.ehri.project.importers.csv.CsvHistoricalAgentImporter',
      }).expect(201);

      expect(response.body.created_keys).toEqual({ '-': ['auths-381'] });
      const agent = await stored('auths-381');
      expect(agent?.bundle).toMatchObject({ type: 'HistoricalAgent', data: { identifier: '381' } });
      expect(agent?.edges).toMatchObject({ inAuthoritativeSet: ['auths'], hasPermissionScope: ['auths'] });
      const description = await onlyDescription('auths-381');
      expect(description).toMatchObject({
        id: 'auths-381.eng',
        type: 'HistoricalAgentDescription',
        data: {
          name: 'Abwehr',
          languageCode: 'eng',
          otherFormsOfName: ['Amt Ausland/Abwehr', 'Abwehr II'],
          datesOfExistence: '1920-1944',
          typeOfEntity: 'subject',
        },
      });
    });

    it('imports concepts into a vocabulary (CsvConceptImporter)', async () => {
      await addNamedItem(t.store, 'CvocVocabulary', 'fast');
      const body = 'id,name,url\nfst810769,Antisemitism,http://id.worldcat.org/fast/810769/\n';
      const response = await importCsv(body, { scope: 'fast', importer: 'concepts' }).expect(201);

      expect(response.body.created_keys).toEqual({ '-': ['fast-fst810769'] });
      expect((await stored('fast-fst810769'))?.edges).toMatchObject({ inAuthoritativeSet: ['fast'] });
      expect((await onlyDescription('fast-fst810769')).data).toMatchObject({
        name: 'Antisemitism',
        url: 'http://id.worldcat.org/fast/810769/',
      });
    });

    describe('country reports', () => {
      const REPORTS = [
        'countryCode,abstract,history,situation,dataSummary,dataExtensive',
        'gb,UK in brief,A long history,The archives today,Summary of holdings,Extensive survey',
        'NL,Netherlands in brief,,,,',
      ].join('\n');

      function importReports(body: string, query: Record<string, string> = {}) {
        return t
          .post('csv', { importer: 'countries', commit: 'true', ...query })
          .set('Content-Type', 'text/csv')
          .send(body);
      }

      it('sets the report fields of existing countries, which is an update (allow-update)', async () => {
        const response = await importReports(REPORTS, { 'allow-update': 'true' }).expect(201);

        expect(response.body).toMatchObject({ created: 0, updated: 2, updated_keys: { '-': ['gb', 'nl'] } });
        expect((await stored('gb'))?.bundle.data).toEqual({
          identifier: 'gb',
          name: 'United Kingdom',
          abstract: 'UK in brief',
          history: 'A long history',
          situation: 'The archives today',
          summary: 'Summary of holdings',
          extensive: 'Extensive survey',
        });
        expect((await stored('nl'))?.bundle.data).toEqual({
          identifier: 'nl',
          name: 'Netherlands',
          abstract: 'Netherlands in brief',
        });
        const again = await importReports(REPORTS).expect(201);
        expect(again.body).toMatchObject({ updated: 0, unchanged: 2 });
      });

      it('refuses to change a country without allow-update, naming it', async () => {
        const response = await importReports(REPORTS).expect(400);

        expect(response.body.details).toMatchObject({
          id: 'gb',
          message: 'Item gb exists with different content and allow-update is false',
        });
        expect((await stored('gb'))?.bundle.data).not.toHaveProperty('abstract');
      });

      it('refuses an unknown column and a country code that is none', async () => {
        const unknown = await importReports('countryCode,abstrakt\ngb,Typo\n').expect(400);
        expect(unknown.body.details.message).toMatch(/A country report has no field "abstrakt"/);

        const badCode = await importReports('countryCode,abstract\nxx,Nowhere\n').expect(400);
        expect(badCode.body.details.message).toBe(
          'CSV row 2, column countryCode: "xx" is not an ISO 3166-1 alpha-2 country code',
        );
      });

      it('takes no scope', async () => {
        const response = await importReports(REPORTS, { scope: 'nl-r1' }).expect(400);

        expect(response.body.details.message).toBe('A CSV import of countries takes no scope');
      });
    });
  });
});

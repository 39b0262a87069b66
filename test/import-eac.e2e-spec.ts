import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { addNamedItem } from '../src/named-items/named-item';
import { StoredItem } from '../src/graph/graph-store';
import { Bundle } from '../src/items/bundle';
import { buildArchive } from './support/archives';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { EHRI_FIXTURES } from './support/fixture-paths';

const EHRI = EHRI_FIXTURES;
const SET = 'auths';

function fixture(name: string): Buffer {
  return readFileSync(path.join(EHRI, name));
}

/** eac.xml without its entityId. */
const WITHOUT_ENTITY_ID = fixture('eac.xml')
  .toString('utf8')
  .replace(/<entityId[^>]*>test-eac<\/entityId>/, '');

describe('POST /import/eac', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
    await addNamedItem(t.store, 'AuthoritativeSet', SET);
  });
  afterEach(() => t.close());

  function importEac(
    body: string | Buffer,
    query: Record<string, string> = {},
    contentType = 'application/xml',
  ) {
    return t
      .post('eac', { scope: SET, commit: 'true', ...query })
      .set('Content-Type', contentType)
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

  it('imports eac.xml into the authoritative set as one historical agent', async () => {
    const response = await importEac(fixture('eac.xml'), { tag: 'eac.xml' }).expect(201);

    expect(response.body).toMatchObject({
      created: 1,
      created_keys: { 'eac.xml': ['auths-test_eac'] },
      errors: {},
    });
    const agent = await stored('auths-test_eac');
    expect(agent?.bundle).toMatchObject({
      type: 'HistoricalAgent',
      data: { identifier: 'test-eac', typeOfEntity: 'corporateBody' },
    });
    expect(agent?.edges).toMatchObject({ inAuthoritativeSet: [SET], hasPermissionScope: [SET] });
    const description = await onlyDescription('auths-test_eac');
    expect(description.id).toBe('auths-test_eac.eng-test_eac');
    expect(description.data).toMatchObject({
      identifier: 'test-eac',
      name: 'Test Corporate Body',
      languageCode: 'eng',
      place: 'United Kingdom',
      biographicalHistory: 'Description for test corporate body',
      datesOfExistence: '2000-01-01',
      source: 'Test source',
    });
  });

  it('imports abwehr.xml as agent 381 with its dates of existence, names and maintenance history', async () => {
    await importEac(fixture('abwehr.xml')).expect(201);

    expect((await stored('auths-381'))?.bundle.data.identifier).toBe('381');
    const description = await onlyDescription('auths-381');
    expect(description.data).toMatchObject({
      name: 'Abwehr',
      otherFormsOfName: 'Self-defense',
      functions: 'Administrative',
    });
    expect(description.relations.hasDate?.map((date) => date.data)).toEqual([
      { startDate: '1933', endDate: '1944', precision: 'year' },
    ]);
    expect(description.relations.maintenance?.map((event) => event.data.eventType).sort()).toEqual([
      'created',
      'revised',
    ]);
    expect(description.relations.relatesTo?.map((relation) => relation.data.name).sort()).toEqual([
      'Geheime Feldpolizei',
      'SS Rasse- und Siedlungshauptamt',
    ]);
    // Unmapped elements are kept, keyed by their path.
    expect(description.relations.hasUnknownProperty?.[0].data).toMatchObject({
      'eac-cpf_control_maintenanceStatus_': 'new',
    });
  });

  it('finds the same agent unchanged on a second import', async () => {
    await importEac(fixture('abwehr.xml')).expect(201);

    const again = await importEac(fixture('abwehr.xml')).expect(201);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  });

  it('changes nothing on a dry run, but answers what would happen', async () => {
    const response = await importEac(fixture('abwehr.xml'), { commit: 'false' }).expect(201);

    expect(response.body.created).toBe(1);
    expect(await stored('auths-381')).toBeUndefined();
  });

  it('describes the agent in the lang parameter when the record declares no language', async () => {
    await importEac(fixture('eac.xml'), { lang: 'fre' }).expect(201);

    const description = await onlyDescription('auths-test_eac');
    expect(description).toMatchObject({ id: 'auths-test_eac.fra-test_eac', data: { languageCode: 'fra' } });
  });

  it('refuses a record without entityId, naming the record and the field', async () => {
    const strict = await importEac(WITHOUT_ENTITY_ID, { tag: 'no-id.xml' }).expect(400);
    expect(strict.body.details).toMatchObject({ tag: 'no-id.xml', key: 'test-eac' });
    expect(strict.body.details.message).toMatch(
      /EAC record test-eac \(no-id\.xml, line \d+\): entityId: missing/,
    );

    const tolerant = await importEac(WITHOUT_ENTITY_ID, { tag: 'no-id.xml', tolerant: 'true' }).expect(201);
    expect(tolerant.body).toMatchObject({
      created: 0,
      errors: { 'test-eac': expect.stringContaining('entityId') },
    });
  });

  it('imports every record of an archive, each under its entry name', async () => {
    const zip = await buildArchive('zip', {
      'eac.xml': fixture('eac.xml'),
      'abwehr.xml': fixture('abwehr.xml'),
    });

    const response = await importEac(zip, {}, 'application/zip').expect(201);

    expect(response.body).toMatchObject({
      created: 2,
      created_keys: { 'eac.xml': ['auths-test_eac'], 'abwehr.xml': ['auths-381'] },
    });
  });

  it('answers to the reference class names', async () => {
    await importEac(fixture('eac.xml'), {
      handler: 'eu.ehri.project.importers.eac.EacHandler',
      importer: 'eu.ehri.project.importers.eac.EacImporter',
    }).expect(201);

    expect(await stored('auths-test_eac')).toBeDefined();
  });

  it('maps fields by the mapping the properties parameter names', async () => {
    const mapping = path.join(t.root, 'custom-eac.properties');
    await writeFile(
      mapping,
      'entityId/=objectIdentifier\nnameEntry/=NameEntry\nnameEntry/part/=namePart\nbiogHist/p/=history\n',
    );

    await importEac(fixture('eac.xml'), { properties: mapping }).expect(201);

    const description = await onlyDescription('auths-test_eac');
    expect(description.data).toMatchObject({
      name: 'Test Corporate Body',
      history: 'Description for test corporate body',
    });
    expect(description.data.biographicalHistory).toBeUndefined();
  });

  it('answers 400 with line and column for malformed XML, and writes nothing', async () => {
    const truncated = fixture('eac.xml').toString('utf8').replace('</eac-cpf>', '');

    const response = await importEac(truncated, { tag: 'truncated.xml' }).expect(400);

    expect(response.body.details).toMatchObject({ tag: 'truncated.xml', line: expect.any(Number) });
    expect(await stored('auths-test_eac')).toBeUndefined();
  });
});

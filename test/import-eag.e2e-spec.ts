import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StoredItem } from '../src/graph/graph-store';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { EHRI_FIXTURES } from './support/fixture-paths';

const EHRI = EHRI_FIXTURES;
const EAG_2012 = path.resolve(__dirname, '../src/import/formats/eag/testdata/eag-2012.xml');

function fixture(name: string): Buffer {
  return readFileSync(path.join(EHRI, name));
}

describe('POST /import/eag', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
  });
  afterEach(() => t.close());

  function importEag(body: Buffer, query: Record<string, string> = {}) {
    return t
      .post('eag', { scope: 'nl', commit: 'true', ...query })
      .set('Content-Type', 'application/xml')
      .send(body);
  }

  async function stored(id: string): Promise<StoredItem | undefined> {
    return (await t.store.read((tx) => tx.getItems([id]))).get(id);
  }

  it('imports eag.xml into a country as a repository with its address, unchanged the second time', async () => {
    const first = await importEag(fixture('eag.xml'), { tag: 'eag.xml' }).expect(201);
    expect(first.body).toMatchObject({ created: 1, created_keys: { 'eag.xml': ['nl-test_repository'] } });
    const repository = await stored('nl-test_repository');
    expect(repository?.bundle.data).toEqual({ identifier: 'test-repository', typeOfEntity: 'organisation' });
    expect(repository?.edges).toMatchObject({ hasCountry: ['nl'], hasPermissionScope: ['nl'] });
    const [description] = repository?.bundle.relations.describes ?? [];
    expect(description.data).toMatchObject({
      name: 'Test Repository',
      otherFormsOfName: 'Test Repository - Alt Name',
    });
    expect(description.relations.hasAddress?.[0].data).toMatchObject({
      street: 'Any Street',
      municipality: 'A Town',
      postalCode: 'ABC 123',
      countryCode: 'NL',
      email: 'info@example.com',
      webpage: 'www.example.com',
      telephone: '12345 678910',
    });

    const again = await importEag(fixture('eag.xml')).expect(201);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  });

  it('replaces a re-imported repository whole, as the reference does', async () => {
    await importEag(fixture('eag.xml')).expect(201);
    const french = fixture('eag.xml').toString('utf8').replace('langcode="eng"', 'langcode="fre"');
    const response = await importEag(Buffer.from(french), { 'allow-update': 'true' }).expect(201);
    expect(response.body.updated).toBe(1);
    const descriptions = (await stored('nl-test_repository'))?.bundle.relations.describes ?? [];
    expect(descriptions.map((description) => description.id)).toEqual([
      'nl-test_repository.fra-test_repository_desc',
    ]);
  });

  it('imports eag-2896.xml with its maintenance events and priority', async () => {
    await importEag(fixture('eag-2896.xml')).expect(201);
    const repository = await stored('nl-nl_002896');
    expect(repository?.bundle.data.priority).toBe(5);
    const [description] = repository?.bundle.relations.describes ?? [];
    expect(description.relations.maintenance).toHaveLength(2);
    expect(description.relations.hasAddress?.[0].data.fax).toBe('(+31) (0)20 - 523 38 88');
  });

  it('imports EAG 2012', async () => {
    const response = await importEag(readFileSync(EAG_2012)).expect(201);
    expect(response.body.created_keys['-']).toEqual(['nl-nl_hana']);
    const [description] = (await stored('nl-nl_hana'))?.bundle.relations.describes ?? [];
    expect(description.data).toMatchObject({ name: 'Nationaal Archief', languageCode: 'nld' });
    expect(description.relations.hasAddress?.[0].data.street).toBe('Prins Willem-Alexanderhof 20');
  });

  it('takes only a country as scope', async () => {
    const response = await importEag(fixture('eag.xml'), { scope: 'r1' }).expect(400);
    expect(response.body.details).toContain('Country');
  });

  it('makes the repository a scope for EAD imports', async () => {
    await importEag(fixture('eag.xml')).expect(201);
    const response = await t
      .post('ead', { scope: 'nl-test_repository', commit: 'true' })
      .set('Content-Type', 'application/xml')
      .send(fixture('ead.xml'))
      .expect(201);
    expect(response.body.created_keys['-']).toEqual(['nl-test_repository-test_doc']);
    expect((await stored('nl-test_repository-test_doc'))?.edges).toMatchObject({
      heldBy: ['nl-test_repository'],
    });
  });
});

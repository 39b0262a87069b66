import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StoredItem } from '../src/graph/graph-store';
import { Bundle } from '../src/items/bundle';
import { buildArchive } from './support/archives';
import {
  addReferenceRepository,
  ehriFixture as fixture,
  HIERARCHICAL_EAD_IDS as HIERARCHY,
  importEadIntoR1,
} from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';

function text(name: string): string {
  return fixture(name).toString('utf8');
}

describe('POST /import/ead', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
    await addReferenceRepository(t);
  });
  afterEach(() => t.close());

  const importEad = (body: string | Buffer, query?: Record<string, string>, contentType?: string) =>
    importEadIntoR1(t, body, query, contentType);

  async function stored(id: string): Promise<StoredItem | undefined> {
    return (await t.store.read((tx) => tx.getItems([id]))).get(id);
  }

  async function descriptions(id: string): Promise<Bundle[]> {
    return (await stored(id))?.bundle.relations.describes ?? [];
  }

  it('imports ead.xml as the reference does, and finds it unchanged the second time', async () => {
    const first = await importEad(fixture('ead.xml'), { tag: 'ead.xml' }).expect(201);
    expect(first.body).toMatchObject({
      created: 1,
      created_keys: { 'ead.xml': ['nl-r1-test_doc'] },
      errors: {},
    });
    const unit = await stored('nl-r1-test_doc');
    expect(unit?.bundle.data).toEqual({ identifier: 'test-doc' });
    expect(unit?.edges).toMatchObject({ heldBy: ['r1'], hasPermissionScope: ['r1'] });
    const [description] = await descriptions('nl-r1-test_doc');
    expect(description.id).toBe('nl-r1-test_doc.eng-c00001_eng');
    expect(description.data).toMatchObject({
      name: 'Test EAD Item',
      languageCode: 'eng',
      sourceFileId: 'C00001#ENG',
    });
    expect(description.relations.hasDate).toHaveLength(2);
    expect(description.relations.relatesTo?.map((point) => point.data)).toEqual([
      { type: 'creator', name: 'Test Name' },
      { type: 'subject', name: 'Test Corporate Body' },
    ]);
    expect(description.relations.hasUnknownProperty).toHaveLength(1);

    const again = await importEad(fixture('ead.xml'), { tag: 'ead.xml' }).expect(201);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  });

  it('creates nothing on a dry run, answering what would be created', async () => {
    const response = await importEad(fixture('ead.xml'), { commit: 'false', tag: 'ead.xml' }).expect(201);
    expect(response.body).toMatchObject({ created: 1, created_keys: { 'ead.xml': ['nl-r1-test_doc'] } });
    expect(await stored('nl-r1-test_doc')).toBeUndefined();
  });

  it('imports the five units of hierarchical-ead.xml with the reference ids, then finds them unchanged', async () => {
    const first = await importEad(fixture('hierarchical-ead.xml')).expect(201);
    expect(first.body.created).toBe(5);
    expect([...first.body.created_keys['-']].sort()).toEqual(HIERARCHY);
    expect((await stored(HIERARCHY[4]))?.edges).toMatchObject({ childOf: [HIERARCHY[2]] });
    expect((await stored(HIERARCHY[1]))?.edges).toMatchObject({ childOf: [HIERARCHY[0]] });

    const again = await importEad(fixture('hierarchical-ead.xml')).expect(201);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
  });

  it('refuses invalid-ead.xml, or with tolerant=true reports its one error and creates nothing', async () => {
    const refused = await importEad(fixture('invalid-ead.xml')).expect(400);
    expect(refused.body.details.message).toContain('identifier: Missing identifier');

    const tolerant = await importEad(fixture('invalid-ead.xml'), { tolerant: 'true' }).expect(201);
    expect(tolerant.body.created).toBe(0);
    expect(Object.values(tolerant.body.errors)).toEqual([expect.stringContaining('Missing identifier')]);
  });

  it('refuses anonymous-c-levels.xml, or with tolerant=true creates two units and reports two errors', async () => {
    const refused = await importEad(fixture('anonymous-c-levels.xml')).expect(400);
    expect(refused.body.details.message).toContain('Parent item has missing identifier');

    const tolerant = await importEad(fixture('anonymous-c-levels.xml'), { tolerant: 'true' }).expect(201);
    expect(tolerant.body.created).toBe(2);
    expect(Object.keys(tolerant.body.errors)).toHaveLength(2);
    expect(await stored('nl-r1-p-c1')).toBeDefined();
  });

  it('imports units without unitid by their position with missing-unitid=position, the same ids again', async () => {
    const first = await importEad(fixture('anonymous-c-levels.xml'), { 'missing-unitid': 'position' }).expect(
      201,
    );
    expect(first.body.created_keys['-'].sort()).toEqual([
      'nl-r1-p',
      'nl-r1-p-c1',
      'nl-r1-p-c1-1',
      'nl-r1-p-c1-1-c2',
    ]);
    const again = await importEad(fixture('anonymous-c-levels.xml'), { 'missing-unitid': 'position' }).expect(
      201,
    );
    expect(again.body).toMatchObject({ created: 0, unchanged: 4 });
  });

  it.each(['zip', 'tar.gz'] as const)('imports a %s of ead.xml and hierarchical-ead.xml', async (format) => {
    const archive = await buildArchive(format, {
      'ead.xml': fixture('ead.xml'),
      'hierarchical-ead.xml': fixture('hierarchical-ead.xml'),
    });
    const response = await importEad(archive, {}, 'application/octet-stream').expect(201);
    expect(response.body.created).toBe(6);
    expect(response.body.created_keys['ead.xml']).toEqual(['nl-r1-test_doc']);
    expect(response.body.created_keys['hierarchical-ead.xml']).toHaveLength(5);
  });

  it('refuses to change an imported unit unless allow-update=true', async () => {
    await importEad(fixture('ead.xml')).expect(201);
    const edited = text('ead.xml').replace(
      '<unittitle encodinganalog="3.1.2">Test EAD Item</unittitle>',
      '<unittitle encodinganalog="3.1.2">Test EAD Item, edited</unittitle>',
    );

    const refused = await importEad(edited).expect(400);
    expect(refused.body.details.message).toContain('nl-r1-test_doc');

    const updated = await importEad(edited, { 'allow-update': 'true' }).expect(201);
    expect(updated.body).toMatchObject({ created: 0, updated: 1 });
    expect((await descriptions('nl-r1-test_doc'))[0].data.name).toBe('Test EAD Item, edited');
  });

  it('keeps one description per language: English, then German', async () => {
    await importEad(fixture('single-ead-multilang-eng.xml')).expect(201);
    const german = await importEad(fixture('single-ead-multilang-deu.xml'), {
      'allow-update': 'true',
    }).expect(201);
    expect(german.body.updated).toBe(1);
    const found = await descriptions('nl-r1-c00001');
    expect(found.map((description) => description.id).sort()).toEqual([
      'nl-r1-c00001.deu-2_deu',
      'nl-r1-c00001.eng-1_eng',
    ]);
    const updatedGerman = await importEad(fixture('single-ead-multilang-deu-2.xml'), {
      'allow-update': 'true',
    });
    expect(updatedGerman.status).toBe(201);
    const afterUpdate = await descriptions('nl-r1-c00001');
    expect(afterUpdate).toHaveLength(2);
    expect(
      afterUpdate.find((description) => description.data.languageCode === 'deu')?.data.scopeAndContent,
    ).toBe('Dies ist ein Testumfang und Inhalt (aktualisiert).');
  });

  it('keeps descriptions in one language from different EAD files apart with use-source-id=true', async () => {
    await importEad(fixture('single-ead-multilang-deu.xml')).expect(201);
    const otherFile = text('single-ead-multilang-deu.xml').replace(
      'encodinganalog="Identifier">2</eadid>',
      'encodinganalog="Identifier">3</eadid>',
    );
    await importEad(otherFile, { 'allow-update': 'true', 'use-source-id': 'true' }).expect(201);
    expect((await descriptions('nl-r1-c00001')).map((description) => description.id).sort()).toEqual([
      'nl-r1-c00001.deu-2_deu',
      'nl-r1-c00001.deu-3_deu',
    ]);
    await importEad(fixture('single-ead-multilang-deu.xml'), { 'allow-update': 'true' }).expect(201);
    expect((await descriptions('nl-r1-c00001')).map((description) => description.id)).toEqual([
      'nl-r1-c00001.deu-2_deu',
    ]);
  });

  it('describes a unit in the lang parameter when the finding aid gives no language', async () => {
    await importEad(fixture('single-ead-no-lang.xml'), { lang: 'fre' }).expect(201);
    const [description] = await descriptions('nl-r1-c00001');
    expect(description.id).toBe('nl-r1-c00001.fra-1_fra');
    expect(description.data).toMatchObject({ languageCode: 'fra', sourceFileId: '1#FRA' });
  });

  it("selects the EAD reader by the reference's class names, and refuses unknown ones", async () => {
    await importEad(fixture('ead.xml'), { handler: 'eu.ehri.project.importers.ead.EadHandler' }).expect(201);
    await importEad(fixture('ead.xml'), { importer: 'EadImporter', commit: 'false' }).expect(201);
    const unknown = await importEad(fixture('ead.xml'), { handler: 'IDontExist' }).expect(400);
    expect(unknown.body.details).toBe('Class not found: IDontExist');
  });

  it('refuses truncated XML, naming the tag, line and column', async () => {
    const truncated = fixture('ead.xml').subarray(0, 1500);
    const lines = truncated.toString('utf8').split('\n');
    const response = await importEad(truncated, { tag: 'ead.xml' }).expect(400);
    expect(response.body.details).toMatchObject({
      tag: 'ead.xml',
      line: lines.length,
      column: lines[lines.length - 1].length + 1,
    });
    expect(await stored('nl-r1-test_doc')).toBeUndefined();
  });

  it('never expands an external entity', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'xxe-'));
    try {
      const secret = path.join(directory, 'secret.txt');
      await writeFile(secret, 'TOP SECRET');
      const document = text('ead.xml')
        .replace(/<!DOCTYPE[^>]*>/, `<!DOCTYPE ead [<!ENTITY xxe SYSTEM "file://${secret}">]>`)
        .replace('This is some test scope and content.', 'Scope &xxe; and content.');
      await importEad(document).expect(201);
      const [description] = await descriptions('nl-r1-test_doc');
      expect(description.data.scopeAndContent).toBe('Scope and content.');
      expect(JSON.stringify(description)).not.toContain('TOP SECRET');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('refuses a "billion laughs" document', async () => {
    const declarations = ['<!ENTITY lol0 "lol">'];
    for (let level = 1; level <= 9; level++)
      declarations.push(`<!ENTITY lol${level} "${`&lol${level - 1};`.repeat(10)}">`);
    const document = text('ead.xml')
      .replace(/<!DOCTYPE[^>]*>/, `<!DOCTYPE ead [${declarations.join('')}]>`)
      .replace('This is some test scope and content.', '&lol9;');
    const response = await importEad(document).expect(400);
    expect(response.body.details.message).toContain('Entity expansion limit exceeded');
  });

  it('maps the fields of comprehensive-ead.xml', async () => {
    const response = await importEad(fixture('comprehensive-ead.xml')).expect(201);
    expect(response.body.created).toBe(37);
    const id = 'nl-r1-resource_call_ident_num';
    const [description] = await descriptions(id);
    expect(description.data).toMatchObject({
      name: 'Title (i.e. Everything but the kitchen sink, unitttitle) |||',
      scopeAndContent: 'Scope and contents note content no label |||\n\nScope and contents note content |||',
      rulesAndConventions: 'Local',
      languageCode: 'eng',
    });
    expect((await stored(`${id}-series_i`))?.edges).toMatchObject({ childOf: [id] });
  });

  it('imports irn1351.xml, a 3 MB finding aid without XML declaration', async () => {
    const response = await importEad(fixture('irn1351.xml'), { tag: 'irn1351.xml' }).expect(201);
    expect(response.body.created).toBe(1044);
    expect(await stored('nl-r1-irn1351')).toBeDefined();
  });

  it('maps fields with a properties file from an import root', async () => {
    await writeFile(
      path.join(t.root, 'mapping.properties'),
      'did/unitid/=objectIdentifier\nscopecontent/p/=abstract\n',
    );
    await importEad(fixture('ead.xml'), { properties: 'mapping.properties' }).expect(201);
    const [description] = await descriptions('nl-r1-test_doc');
    expect(description.data).toMatchObject({
      abstract: 'This is some test scope and content.',
      name: 'test-doc',
    });
    expect(description.data.scopeAndContent).toBeUndefined();
  });
});

import { EAD2002_PROPERTIES } from './ead2002-mapping';
import {
  contextOf,
  dataOf,
  descriptionOf,
  fixture,
  items,
  read,
  sourceOf,
} from '../../../../test/support/ead-reading';

describe("EadReader: the reference's finding aids and mappings", () => {
  it('reads ead.xml as the reference does', async () => {
    const [unit] = items(await read(sourceOf(fixture('ead.xml'), 'ead.xml')));
    expect(unit.tag).toBe('ead.xml');
    expect(unit.write.bundle).toMatchObject({
      id: 'nl-r1-test_doc',
      type: 'DocumentaryUnit',
      data: { identifier: 'test-doc' },
    });
    expect(unit.write.edges).toEqual({ heldBy: ['nl-r1'], hasPermissionScope: ['nl-r1'] });
    const description = descriptionOf(unit);
    expect(description.id).toBe('nl-r1-test_doc.eng-c00001_eng');
    expect(description.data).toEqual({
      creationProcess: 'IMPORT',
      identifier: 'C00001#ENG',
      sourceFileId: 'C00001#ENG',
      languageCode: 'eng',
      name: 'Test EAD Item',
      levelOfDescription: 'collection',
      extentAndMedium: '167 files',
      scopeAndContent: 'This is some test scope and content.',
      rulesAndConventions: 'ISAD(G)',
      languageOfMaterial: ['eng', 'fra', 'deu', 'heb', 'ron', 'yid'],
    });
    expect(dataOf(description.relations.hasDate)).toEqual([
      {
        startDate: '1924-01-01',
        endDate: '1947-12-31',
        precision: 'day',
        type: 'creation',
        description: '1924-1-1 - 1947-12-31',
      },
      {
        startDate: '1943-01-01',
        endDate: '1943-01-01',
        precision: 'day',
        type: 'creation',
        description: '1943-1-1',
      },
    ]);
    expect(dataOf(description.relations.relatesTo)).toEqual([
      { type: 'creator', name: 'Test Name' },
      { type: 'subject', name: 'Test Corporate Body' },
    ]);
    expect(dataOf(description.relations.hasUnknownProperty)).toEqual([
      {
        ead_archdesc_did_repository_corpname_: 'Test Corportate Body',
        ead_archdesc_did_repository_address_addressline_: ['Test Address 1', 'Test Address 2'],
        ead_archdesc_did_langmaterial_language_: [
          'English',
          'French',
          'German',
          'Hebrew',
          'Romanian',
          'Yiddish',
        ],
      },
    ]);
  });

  it('reads hierarchical-ead.xml into five units, each child after its children and before its parent', async () => {
    const units = items(await read(sourceOf(fixture('hierarchical-ead.xml'))));
    const top = 'nl-r1-ctop_level_fonds';
    expect(units.map((unit) => unit.write.bundle.id)).toEqual([
      `${top}-c00001-c00002-1`,
      `${top}-c00001-c00002-2`,
      `${top}-c00001-c00002`,
      `${top}-c00001`,
      top,
    ]);
    expect(units.map((unit) => unit.write.edges)).toEqual([
      { childOf: [`${top}-c00001-c00002`], hasPermissionScope: [`${top}-c00001-c00002`] },
      { childOf: [`${top}-c00001-c00002`], hasPermissionScope: [`${top}-c00001-c00002`] },
      { childOf: [`${top}-c00001`], hasPermissionScope: [`${top}-c00001`] },
      { childOf: [top], hasPermissionScope: [top] },
      { heldBy: ['nl-r1'], hasPermissionScope: ['nl-r1'] },
    ]);
    expect(descriptionOf(units[3]).data).toMatchObject({
      levelOfDescription: 'subfonds',
      scopeAndContent: 'Top level item.',
      sourceFileId: 'test_desc_id#ENG',
      languageOfMaterial: ['eng', 'fra'],
    });
    expect(descriptionOf(units[4]).data.rulesAndConventions).toBe('ISAD(G)');
    expect(descriptionOf(units[3]).data.rulesAndConventions).toBeUndefined();
  });

  it('describes a unit in the finding aid language, or in the lang parameter when it gives none', async () => {
    const [english] = items(await read(sourceOf(fixture('single-ead-multilang-eng.xml'))));
    const [german] = items(await read(sourceOf(fixture('single-ead-multilang-deu.xml'))));
    const [french] = items(
      await read(sourceOf(fixture('single-ead-no-lang.xml')), contextOf({ lang: 'fra' })),
    );
    expect([english, german, french].map((unit) => unit.write.bundle.id)).toEqual([
      'nl-r1-c00001',
      'nl-r1-c00001',
      'nl-r1-c00001',
    ]);
    expect([english, german, french].map((unit) => descriptionOf(unit).id)).toEqual([
      'nl-r1-c00001.eng-1_eng',
      'nl-r1-c00001.deu-2_deu',
      'nl-r1-c00001.fra-1_fra',
    ]);
    expect(descriptionOf(german).data).toMatchObject({
      languageCode: 'deu',
      name: 'EAD-Artikel testen',
      sourceFileId: '2#DEU',
    });
  });

  it('reads namespaced EAD and a finding aid without XML declaration', async () => {
    const [minimal] = items(await read(sourceOf(fixture('ead1c.xml'))));
    expect(minimal.write.bundle.id).toBe('nl-r1-1c');
    expect(descriptionOf(minimal).data).toMatchObject({ name: 'Minimal Collection', sourceFileId: '1c#ENG' });
    const units = items(await read(sourceOf(fixture('irn1351.xml'), 'irn1351.xml', 64 * 1024)));
    expect(units).toHaveLength(1044);
    const top = units[units.length - 1];
    expect(top.write.bundle).toMatchObject({
      id: 'nl-r1-irn1351',
      data: { identifier: 'irn1351', otherIdentifiers: ['1990.10'] },
    });
    expect(descriptionOf(top).data.sourceFileId).toBe('irn1351#en#ENG');
  });

  it('maps the fields of comprehensive-ead.xml', async () => {
    const units = items(await read(sourceOf(fixture('comprehensive-ead.xml'))));
    expect(units).toHaveLength(37);
    const top = units[units.length - 1];
    expect(top.write.bundle.data).toEqual({ identifier: 'Resource (call) |||.Ident (num) |||' });
    const data = descriptionOf(top).data;
    for (const field of [
      'name',
      'abstract',
      'acquisition',
      'appraisal',
      'archivalHistory',
      'biographicalHistory',
      'conditionsOfAccess',
      'conditionsOfReproduction',
      'extentAndMedium',
      'locationOfCopies',
      'locationOfOriginals',
      'notes',
      'physicalCharacteristics',
      'publicationNote',
      'relatedUnitsOfDescription',
      'separatedUnitsOfDescription',
      'scopeAndContent',
      'systemOfArrangement',
      'accruals',
      'archivistNote',
      'findingAids',
      'processInfo',
      'rulesAndConventions',
    ]) {
      expect([field, data[field]]).toEqual([field, expect.anything()]);
    }
    expect(data.scopeAndContent).toBe(
      'Scope and contents note content no label |||\n\nScope and contents note content |||',
    );
    const types = new Set(descriptionOf(top).relations.relatesTo?.map((point) => point.data.type));
    expect(types).toEqual(new Set(['creator', 'subject', 'person', 'corporateBody']));
  });

  it('maps fields with the properties parameter instead of the default mapping', async () => {
    const properties = 'did/unitid/=objectIdentifier\ndid/unittitle/=title\nscopecontent/p/=abstract\n';
    const [unit] = items(await read(sourceOf(fixture('ead.xml')), contextOf({ properties })));
    const data = descriptionOf(unit).data;
    expect(data).toMatchObject({
      title: 'Test EAD Item',
      abstract: 'This is some test scope and content.',
      name: 'test-doc',
    });
    expect(data.scopeAndContent).toBeUndefined();
    expect(descriptionOf(unit).relations.relatesTo).toBeUndefined();
  });

  it("gives every unit the finding aid's maintenance events when a mapping makes the header one", async () => {
    const properties = `${EAD2002_PROPERTIES}profiledesc/=MaintenanceEvent\nprofiledesc/creation/=source\n`;
    const units = items(await read(sourceOf(fixture('hierarchical-ead.xml')), contextOf({ properties })));
    expect(units).toHaveLength(5);
    for (const unit of units) {
      expect(dataOf(descriptionOf(unit).relations.maintenance)).toEqual([
        expect.objectContaining({ eventType: 'created', source: 'Generated by qubit 1.2', order: 0 }),
      ]);
    }
  });

  it('makes top-level units children of a unit scope', async () => {
    const scope = { id: 'nl-r1-c1', type: 'DocumentaryUnit' as const, identifiers: ['nl', 'r1', 'c1'] };
    const [unit] = items(await read(sourceOf(fixture('ead.xml')), contextOf({ scope })));
    expect(unit.write.bundle.id).toBe('nl-r1-c1-test_doc');
    expect(unit.write.edges).toEqual({ childOf: ['nl-r1-c1'], hasPermissionScope: ['nl-r1-c1'] });
  });

  it('reads ISO-8859-1 finding aids', async () => {
    const document = Buffer.concat([
      Buffer.from(
        '<?xml version="1.0" encoding="ISO-8859-1"?><ead><archdesc><did><unitid>z</unitid><unittitle>',
      ),
      Buffer.from('Zürich', 'latin1'),
      Buffer.from('</unittitle></did></archdesc></ead>'),
    ]);
    expect(descriptionOf(items(await read(sourceOf(document)))[0]).data.name).toBe('Zürich');
  });
});

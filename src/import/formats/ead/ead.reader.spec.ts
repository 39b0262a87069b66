import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../config/app-config';
import { Bundle } from '../../../items/bundle';
import { ItemType } from '../../../items/item-types';
import {
  ImportContext,
  ImportInputError,
  ImportSource,
  ItemProduced,
  ItemRejected,
  ReadEvent,
} from '../format-reader';
import { builtEvent } from '../read-events';
import { EadReader } from './ead.reader';
import { EAD2002_PROPERTIES } from './ead2002-mapping';
import { chunkedSource } from '../../../../test/support/chunked-source';

const FIXTURES = path.resolve(__dirname, '../../../../../shared/fixtures/ehri');

function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

function sourceOf(content: string | Buffer, tag = 'doc.xml', chunkSize = 4096): ImportSource {
  return chunkedSource(content, tag, chunkSize);
}

interface ContextOptions {
  lang?: string;
  properties?: string;
  query?: Record<string, string>;
  scope?: { id: string; type: ItemType; identifiers: string[] };
}

function contextOf(options: ContextOptions = {}): ImportContext {
  const scope = options.scope ?? { id: 'nl-r1', type: 'Repository', identifiers: ['nl', 'r1'] };
  return {
    params: {
      tolerant: false,
      allowUpdate: false,
      lang: options.lang ?? 'eng',
      tag: '-',
      useSourceId: false,
      properties: options.properties,
      query: options.query ?? {},
      limits: { maxDepth: 64, maxIdLength: 1024 },
    },
    scope: {
      bundle: { id: scope.id, type: scope.type, data: {}, relations: {} },
      edges: {},
      hash: '',
      updated: '',
      ancestors: [],
      identifiers: scope.identifiers,
    },
    user: 'tester',
    store: {} as ImportContext['store'],
  };
}

/** The reader as configured by default: a source of unknown size is read in process. */
const inProcess = new EadReader(loadConfig({}));

async function read(source: ImportSource, context = contextOf(), reader = inProcess): Promise<ReadEvent[]> {
  const events: ReadEvent[] = [];
  for await (const event of reader.read(source, context)) events.push(builtEvent(event));
  return events;
}

function items(events: readonly ReadEvent[]): ItemProduced[] {
  return events.filter((event): event is ItemProduced => event.kind === 'item');
}

function rejections(events: readonly ReadEvent[]): ItemRejected[] {
  return events.filter((event): event is ItemRejected => event.kind === 'invalid');
}

function descriptionOf(item: ItemProduced): Bundle {
  const descriptions = item.write.bundle.relations.describes ?? [];
  expect(descriptions).toHaveLength(1);
  return descriptions[0];
}

function dataOf(bundles: readonly Bundle[] | undefined): Bundle['data'][] {
  return (bundles ?? []).map((bundle) => bundle.data);
}

describe('EadReader', () => {
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

  it('rejects a unit without unitid, and its descendants, naming the item, the field and the line', async () => {
    const events = await read(sourceOf(fixture('anonymous-c-levels.xml')));
    expect(items(events).map((unit) => unit.write.bundle.id)).toEqual(['nl-r1-p-c1', 'nl-r1-p']);
    expect(rejections(events)).toEqual([
      {
        kind: 'invalid',
        tag: 'doc.xml',
        key: 'p/c1/[null]/c2 (line 28)',
        message:
          'DocumentaryUnit p/c1/[null]/c2 in doc.xml, ending at line 28, column 25: identifier: Parent item has missing identifier',
      },
      {
        kind: 'invalid',
        tag: 'doc.xml',
        key: 'p/c1/[null] (line 29)',
        message:
          'DocumentaryUnit p/c1/[null] in doc.xml, ending at line 29, column 21: identifier: Missing identifier',
      },
    ]);
    // An untitled unit is named after its identifier, as in the reference.
    expect(descriptionOf(items(events)[0]).data.name).toBe('c1');
  });

  it('rejects a top-level unit without unitid and the children of one', async () => {
    expect(rejections(await read(sourceOf(fixture('invalid-ead.xml')))).map((event) => event.key)).toEqual([
      '[null] (line 24)',
    ]);
    const events = await read(sourceOf(fixture('missing-parent-unitid-ead.xml')));
    expect(items(events)).toEqual([]);
    expect(rejections(events).map((event) => event.message)).toEqual([
      expect.stringContaining(
        '[null]/c1 in doc.xml, ending at line 22, column 10: identifier: Parent item has missing identifier',
      ),
      expect.stringContaining(
        '[null] in doc.xml, ending at line 24, column 13: identifier: Missing identifier',
      ),
    ]);
  });

  describe('missing-unitid', () => {
    const document = `<ead><eadheader><eadid>E1</eadid></eadheader>
      <archdesc level="fonds" id="top"><did><unitid>F1</unitid></did><dsc>
        <c01 id="series-a"><did><unittitle>Series A</unittitle></did>
          <c02><did><unitid>F1-A-1</unitid></did></c02>
          <c02 id="file-2"><did><unittitle>File 2</unittitle></did></c02>
        </c01>
        <c01><did><unittitle>Series B</unittitle></did></c01>
      </dsc></archdesc></ead>`;

    async function ids(policy: string): Promise<(string | undefined)[]> {
      const events = await read(sourceOf(document), contextOf({ query: { 'missing-unitid': policy } }));
      return events.map((event) => (event.kind === 'item' ? event.write.bundle.id : undefined));
    }

    it('takes a local id from the component id attribute with "attribute"', async () => {
      expect(await ids('attribute')).toEqual([
        'nl-r1-f1-series_a-f1_a_1',
        'nl-r1-f1-series_a-file_2',
        'nl-r1-f1-series_a',
        undefined,
        'nl-r1-f1',
      ]);
    });

    it('derives a local id from the position among siblings with "position", the same on every read', async () => {
      const expected = ['nl-r1-f1-1-f1_a_1', 'nl-r1-f1-1-2', 'nl-r1-f1-1', 'nl-r1-f1-2', 'nl-r1-f1'];
      expect(await ids('position')).toEqual(expected);
      expect(await ids('position')).toEqual(expected);
    });

    it('rejects such units with "error"', async () => {
      expect(await ids('error')).toEqual([undefined, undefined, undefined, undefined, 'nl-r1-f1']);
    });

    it('refuses any other value', async () => {
      await expect(
        read(sourceOf(document), contextOf({ query: { 'missing-unitid': 'guess' } })),
      ).rejects.toThrow(ImportInputError);
    });
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

  it('emits units while the document is still being read', async () => {
    let chunksRead = 0;
    const source: ImportSource = {
      tag: 'large.xml',
      async *bytes() {
        yield Buffer.from('<ead><archdesc><did><unitid>top</unitid></did><dsc>');
        for (let index = 0; index < 2000; index++) {
          chunksRead += 1;
          yield Buffer.from(
            `<c01><did><unitid>u${index}</unitid><unittitle>Unit ${index}</unittitle></did></c01>`,
          );
        }
        yield Buffer.from('</dsc></archdesc></ead>');
      },
    };
    let readAtFirstUnit: number | undefined;
    let units = 0;
    for await (const event of inProcess.read(source, contextOf())) {
      readAtFirstUnit ??= chunksRead;
      units += event.kind === 'item' ? 1 : 0;
    }
    expect(units).toBe(2001);
    expect(readAtFirstUnit).toBeLessThan(5);
  });

  it('fails on malformed XML with the tag, line and column', async () => {
    const truncated = fixture('ead.xml').subarray(0, 1500);
    const lines = truncated.toString().split('\n');
    await expect(read(sourceOf(truncated, 'ead.xml'))).rejects.toMatchObject({
      name: 'ImportInputError',
      where: { tag: 'ead.xml', line: lines.length, column: lines[lines.length - 1].length + 1 },
    });
  });

  it('needs a scope', async () => {
    const context = { ...contextOf(), scope: undefined };
    await expect(read(sourceOf(fixture('ead.xml')), context)).rejects.toThrow(ImportInputError);
  });

  describe('in a worker thread', () => {
    const inWorker = new EadReader(loadConfig({ IMPORT_WORKER_MIN_BYTES: '0' }));

    it('produces the events it produces in process, items with the same change hashes', async () => {
      const source = () => sourceOf(fixture('comprehensive-ead.xml'));
      const expected = await read(source());
      const events = await read(source(), contextOf(), inWorker);
      expect(items(expected).every((item) => item.hash !== undefined)).toBe(true);
      expect(events).toEqual(expected);
    });

    it('fails on malformed XML with the tag, line and column it names in process', async () => {
      const truncated = sourceOf(fixture('ead.xml').subarray(0, 1500), 'ead.xml');
      const failure = await read(truncated, contextOf(), inWorker).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ImportInputError);
      await expect(read(truncated)).rejects.toEqual(failure);
      expect(failure).toMatchObject({ where: { tag: 'ead.xml', line: expect.any(Number) } });
    });
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UnbuiltItem } from '../../reading/worker-messages';
import { FlatItemReader, FlatItemWriter } from '../../reading/flat-items';
import { builtEvent, ImportEvent, ImportSource, ItemProduced, ItemRejected, ReadEvent } from '../read-events';
import { OTHER_IDENTIFIERS } from '../../../items/ontology';
import { EAD2002_PROPERTIES } from './ead2002-mapping';
import { eadPartBuilder, EadReadSettings, readEad, readEadInWorker } from './ead-read';
import { chunkedSource } from '../../../../test/support/chunked-source';
import { EHRI_FIXTURES } from '../../../../test/support/fixture-paths';

const FIXTURES = EHRI_FIXTURES;

function sourceOf(content: string | Buffer, chunkSize = 1000): ImportSource {
  return chunkedSource(content, 'doc.xml', chunkSize);
}

function settingsOf(options: Partial<EadReadSettings> = {}): EadReadSettings {
  return {
    scope: { id: 'nl-r1', type: 'Repository', identifiers: ['nl', 'r1'] },
    lang: 'eng',
    missingUnitId: 'error',
    duplicateUnitId: 'error',
    limits: { maxDepth: 64, maxIdLength: 1024 },
    ...options,
  };
}

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/**
 * What `readEadInWorker` reads, once all is read: every other item built as the worker builds it,
 * the others taken from their parts and built as the import run builds them, cloned as they cross
 * threads (built items flat), in order.
 */
async function builtAfterReading(content: string | Buffer, settings: EadReadSettings): Promise<ReadEvent[]> {
  const read = await collect(readEadInWorker(sourceOf(content), settings));
  const build = eadPartBuilder(settings, { tag: 'doc.xml' });
  const writer = new FlatItemWriter();
  const reader = new FlatItemReader();
  const crossed = (event: ReadEvent) =>
    event.kind === 'item' ? reader.read(structuredClone(writer.write(event, [])), 0) : event;
  let unbuilt = 0;
  return read.map((event: ReadEvent | UnbuiltItem) => {
    if (event.kind !== 'unbuilt') return crossed(event);
    return unbuilt++ % 2 === 0 ? crossed(event.build()) : builtEvent(build(structuredClone(event.part())));
  });
}

/** What `eadPartBuilder` makes of every part `readEadInWorker` sends. */
async function fromParts(content: string, settings: EadReadSettings): Promise<ImportEvent[]> {
  const build = eadPartBuilder(settings, { tag: 'doc.xml' });
  const read = await collect(readEadInWorker(sourceOf(content), settings));
  return read.map((event) => (event.kind === 'unbuilt' ? build(structuredClone(event.part())) : event));
}

describe('readEadInWorker with eadPartBuilder', () => {
  it.each([
    ['comprehensive-ead.xml', 'error'],
    ['hierarchical-ead.xml', 'error'],
    ['irn1351.xml', 'error'],
    ['anonymous-c-levels.xml', 'error'],
    ['anonymous-c-levels.xml', 'attribute'],
    ['missing-parent-unitid-ead.xml', 'position'],
  ] as const)(
    'reads %s (missing unit ids: %s) into the events readEad reads',
    async (name, missingUnitId) => {
      const content = readFileSync(path.join(FIXTURES, name));
      const settings = settingsOf({ missingUnitId });
      const expected = await collect(readEad(sourceOf(content), settings));
      expect(expected.length).toBeGreaterThan(0);
      const built = await builtAfterReading(content, settings);
      expect(built).toStrictEqual(expected);
      // Key order too: it is the order of the stored JSON.
      expect(JSON.stringify(built)).toBe(JSON.stringify(expected));
    },
  );

  it('defers the items of units with an id, with the id and hash their items are built with', async () => {
    const content =
      '<ead><archdesc><did><unitid>top</unitid><unittitle>Top</unittitle></did><dsc>' +
      '<c01><did><unittitle>No id</unittitle></did></c01>' +
      '<c01><did><unitid>a</unitid><unittitle>A</unittitle></did></c01>' +
      '</dsc></archdesc></ead>';
    const events = await fromParts(content, settingsOf());
    expect(events.map((event) => event.kind)).toEqual(['invalid', 'deferred', 'deferred']);
    for (const event of events) {
      if (event.kind !== 'deferred') continue;
      const item = event.build();
      if (item.kind !== 'item') throw new Error(`${event.id} was refused`);
      expect([item.write.bundle.id, item.hash, item.tag]).toEqual([event.id, event.hash, 'doc.xml']);
    }
  });

  it('gives a unit built later only the maintenance events read before it ended', async () => {
    const settings = settingsOf({ properties: `${EAD2002_PROPERTIES}change/=MaintenanceEvent\n` });
    const content =
      '<ead><archdesc><did><unitid>top</unitid></did><dsc>' +
      '<c01><did><unitid>a</unitid></did></c01>' +
      '<c01><did><unitid>b</unitid></did><change><date>2020</date></change></c01>' +
      '</dsc></archdesc></ead>';
    const events = await builtAfterReading(content, settings);
    expect(JSON.stringify(events)).toBe(JSON.stringify(await collect(readEad(sourceOf(content), settings))));
    const maintenance = events.map((event) =>
      event.kind === 'item' ? event.write.bundle.relations.describes?.[0].relations.maintenance?.length : -1,
    );
    expect(maintenance).toEqual([undefined, 1, 1]);
  });

  it('gives each unit below the top its ancestors from the scope down, its parent last', async () => {
    const content = readFileSync(path.join(FIXTURES, 'hierarchical-ead.xml'));
    const events = await builtAfterReading(content, settingsOf());
    const chains = events.flatMap((event) =>
      event.kind === 'item' ? [[event.write.bundle.id, event.write.ancestors] as const] : [],
    );
    expect(new Map(chains)).toEqual(
      new Map([
        [
          'nl-r1-ctop_level_fonds-c00001-c00002-1',
          [
            'nl-r1',
            'nl-r1-ctop_level_fonds',
            'nl-r1-ctop_level_fonds-c00001',
            'nl-r1-ctop_level_fonds-c00001-c00002',
          ],
        ],
        [
          'nl-r1-ctop_level_fonds-c00001-c00002-2',
          [
            'nl-r1',
            'nl-r1-ctop_level_fonds',
            'nl-r1-ctop_level_fonds-c00001',
            'nl-r1-ctop_level_fonds-c00001-c00002',
          ],
        ],
        [
          'nl-r1-ctop_level_fonds-c00001-c00002',
          ['nl-r1', 'nl-r1-ctop_level_fonds', 'nl-r1-ctop_level_fonds-c00001'],
        ],
        ['nl-r1-ctop_level_fonds-c00001', ['nl-r1', 'nl-r1-ctop_level_fonds']],
        // Its parent is the scope, which is stored.
        ['nl-r1-ctop_level_fonds', undefined],
      ]),
    );
  });
});

/** A document read in chunks of 64 bytes, which split its elements. */
function read(document: string, options: Partial<EadReadSettings> = {}): Promise<ReadEvent[]> {
  return collect(readEad(sourceOf(document, 64), settingsOf(options)));
}

function ids(events: readonly ReadEvent[]): string[] {
  return events.filter((event): event is ItemProduced => event.kind === 'item').map(idOf);
}

function idOf(event: ItemProduced): string {
  return event.write.bundle.id;
}

function rejections(events: readonly ReadEvent[]): ItemRejected[] {
  return events.filter((event): event is ItemRejected => event.kind === 'invalid');
}

function unitData(events: readonly ReadEvent[], id: string): Record<string, unknown> {
  const unit = events.find((event): event is ItemProduced => event.kind === 'item' && idOf(event) === id);
  if (unit === undefined) throw new Error(`no unit ${id}`);
  return unit.write.bundle.data;
}

/** A finding aid: one fonds `F1` holding the given components, one per line from line 3. */
function findingAid(...components: string[]): string {
  return [
    '<ead><eadheader><eadid>E1</eadid></eadheader>',
    '<archdesc level="fonds"><did><unitid>F1</unitid></did><dsc>',
    ...components,
    '</dsc></archdesc></ead>',
  ].join('\n');
}

function component(unitId: string | undefined, children = '', attributes = ''): string {
  const did = unitId === undefined ? '<did/>' : `<did><unitid>${unitId}</unitid></did>`;
  return `<c${attributes}>${did}${children}</c>`;
}

describe('unit ids whose slug is empty', () => {
  const placeholders = findingAid(
    component('---', component('A')),
    component('...', '', ' id="dots"'),
    component(' - ', '', ' id="--"'),
  );

  it('are missing with missing-unitid=error: the unit and its descendants are refused, naming where', async () => {
    const events = await read(placeholders);
    expect(ids(events)).toEqual(['nl-r1-f1']);
    const [child, dashes, dots, spaced] = rejections(events);
    expect(child.message).toBe(
      'DocumentaryUnit F1/[null]/A in doc.xml, ending at line 3, column 71: identifier: ' +
        'Parent item has no id: Missing identifier: unitid "---" slugifies to nothing',
    );
    expect(dashes.message).toBe(
      'DocumentaryUnit F1/[null] in doc.xml, ending at line 3, column 75: identifier: ' +
        'Missing identifier: unitid "---" slugifies to nothing',
    );
    expect(dots.message).toContain(
      'ending at line 4, column 49: identifier: Missing identifier: unitid "..."',
    );
    expect(spaced.message).toContain('line 5');
    expect(rejections(events)).toHaveLength(4);
  });

  it('take their id from the id attribute with missing-unitid=attribute, unless it is blank too', async () => {
    const events = await read(placeholders, { missingUnitId: 'attribute' });
    expect(ids(events)).toEqual(['nl-r1-f1-dots', 'nl-r1-f1']);
    expect(rejections(events).map((event) => event.key)).toEqual([
      'F1/[null]/A (line 3)',
      'F1/[null] (line 3)',
      'F1/[null] (line 5)',
    ]);
  });

  it('take their position with missing-unitid=position, keeping the placeholder among the other ids', async () => {
    const events = await read(placeholders, { missingUnitId: 'position' });
    expect(ids(events)).toEqual(['nl-r1-f1-1-a', 'nl-r1-f1-1', 'nl-r1-f1-2', 'nl-r1-f1-3', 'nl-r1-f1']);
    expect(unitData(events, 'nl-r1-f1-1')).toMatchObject({ identifier: '1', [OTHER_IDENTIFIERS]: ['---'] });
    expect(rejections(events)).toEqual([]);
  });

  it('never make an id with an empty segment', async () => {
    const events = await read(findingAid(component('F1-'), component('F1 (.)')));
    expect(ids(events)).toEqual(['nl-r1-f1-f1', 'nl-r1-f1']);
    expect(rejections(events)[0].message).toContain('nl-r1-f1-f1 is already the id of <c> at line 3');
  });
});

describe('units of one document that resolve to one id', () => {
  const repeated = findingAid(
    component('C12', component('A')),
    component('c12', component('A') + component('B')),
    component('C12.'),
    component('C12_2'),
  );

  it('are an error naming the id and both places; the later one is refused with its descendants', async () => {
    const events = await read(repeated);
    expect(ids(events)).toEqual(['nl-r1-f1-c12-a', 'nl-r1-f1-c12', 'nl-r1-f1-c12_2', 'nl-r1-f1']);
    const refused = rejections(events);
    expect(refused.map((event) => event.key)).toEqual([
      'F1/c12/A (line 4)',
      'F1/c12/B (line 4)',
      'F1/c12 (line 4)',
      'F1/C12. (line 5)',
    ]);
    const repeat =
      'nl-r1-f1-c12 is already the id of <c> at line 3; keep both with duplicate-unitid=position';
    expect(refused[2].message).toBe(
      `DocumentaryUnit F1/c12 in doc.xml, ending at line 4, column 111: identifier: <c> at line 4: ${repeat}`,
    );
    expect(refused[0].message).toContain(`identifier: Parent item has no id: <c> at line 4: ${repeat}`);
    expect(refused[3].message).toContain('<c> at line 5: nl-r1-f1-c12 is already the id of <c> at line 3');
  });

  it('are all kept with duplicate-unitid=position, the later ones suffixed by occurrence', async () => {
    const expected = [
      'nl-r1-f1-c12-a',
      'nl-r1-f1-c12',
      'nl-r1-f1-c12_2-a',
      'nl-r1-f1-c12_2-b',
      'nl-r1-f1-c12_2',
      'nl-r1-f1-c12_3',
      'nl-r1-f1-c12_2_2',
      'nl-r1-f1',
    ];
    const events = await read(repeated, { duplicateUnitId: 'position' });
    expect(ids(events)).toEqual(expected);
    expect(rejections(events)).toEqual([]);
    // The id follows from the identifier, which keeps the one the file gives among the others.
    expect(unitData(events, 'nl-r1-f1-c12_2')).toMatchObject({
      identifier: 'c12_2',
      [OTHER_IDENTIFIERS]: ['c12'],
    });
    expect(unitData(events, 'nl-r1-f1-c12_3')).toMatchObject({ identifier: 'C12._3' });
    expect(ids(await read(repeated, { duplicateUnitId: 'position' }))).toEqual(expected);
  });

  it('are told apart only among siblings: one unitid under two parents is two units', async () => {
    const events = await read(findingAid(component('S1', component('X')), component('S2', component('X'))));
    expect(ids(events)).toEqual(['nl-r1-f1-s1-x', 'nl-r1-f1-s1', 'nl-r1-f1-s2-x', 'nl-r1-f1-s2', 'nl-r1-f1']);
  });

  it('include ids that missing-unitid=attribute derives', async () => {
    const events = await read(findingAid(component(undefined, '', ' id="a1"'), component('A1')), {
      missingUnitId: 'attribute',
    });
    expect(ids(events)).toEqual(['nl-r1-f1-a1', 'nl-r1-f1']);
    expect(rejections(events)[0].message).toContain(
      '<c> at line 4: nl-r1-f1-a1 is already the id of <c> at line 3',
    );
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UnbuiltItem } from '../../reading/worker-messages';
import { FlatItemReader, FlatItemWriter } from '../../reading/flat-items';
import { builtEvent, ImportEvent, ImportSource, ReadEvent } from '../read-events';
import { EAD2002_PROPERTIES } from './ead2002-mapping';
import { eadPartBuilder, EadReadSettings, readEad, readEadInWorker } from './ead-read';
import { chunkedSource } from '../../../../test/support/chunked-source';

const FIXTURES = path.resolve(__dirname, '../../../../../shared/fixtures/ehri');

function sourceOf(content: string | Buffer, chunkSize = 1000): ImportSource {
  return chunkedSource(content, 'doc.xml', chunkSize);
}

function settingsOf(options: Partial<EadReadSettings> = {}): EadReadSettings {
  return {
    scope: { id: 'nl-r1', type: 'Repository', identifiers: ['nl', 'r1'] },
    lang: 'eng',
    missingUnitId: 'error',
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

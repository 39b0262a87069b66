import { OTHER_IDENTIFIERS } from '../../../items/ontology';
import { ItemProduced, ItemRejected, ReadEvent } from '../read-events';
import { EadReadSettings, readEad } from './ead-read';
import { chunkedSource } from '../../../../test/support/chunked-source';

function settingsOf(options: Partial<EadReadSettings> = {}): EadReadSettings {
  return {
    scope: { id: 'nl-r1', type: 'Repository', identifiers: ['nl', 'r1'] },
    lang: 'eng',
    missingUnitId: 'error',
    duplicateUnitId: 'error',
    ...options,
  };
}

async function read(document: string, options: Partial<EadReadSettings> = {}): Promise<ReadEvent[]> {
  const events: ReadEvent[] = [];
  for await (const event of readEad(chunkedSource(document, 'fa.xml', 64), settingsOf(options))) {
    events.push(event);
  }
  return events;
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
      'DocumentaryUnit F1/[null]/A in fa.xml, ending at line 3, column 71: identifier: ' +
        'Parent item has no id: Missing identifier: unitid "---" slugifies to nothing',
    );
    expect(dashes.message).toBe(
      'DocumentaryUnit F1/[null] in fa.xml, ending at line 3, column 75: identifier: ' +
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
      `DocumentaryUnit F1/c12 in fa.xml, ending at line 4, column 111: identifier: <c> at line 4: ${repeat}`,
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

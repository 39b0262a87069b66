import { ImportInputError } from '../format-reader';
import {
  contextOf,
  descriptionOf,
  fixture,
  items,
  read,
  rejections,
  sourceOf,
} from '../../../../test/support/ead-reading';

describe('EadReader: units without a usable unitid', () => {
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
});

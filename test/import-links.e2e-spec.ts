import { StoredItem } from '../src/graph/graph-store';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { ItemEdgeType } from '../src/items/item-types';
import { IMPORT_LOG_RECORD_TYPE } from '../src/import-logs/import-log-record';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/** A unit with one English description holding the given access points (id → name). */
function unit(id: string, accessPoints: Record<string, string> = {}): Bundle {
  const relatesTo = Object.entries(accessPoints).map(([pointId, name]): Bundle => ({
    id: pointId,
    type: 'AccessPoint',
    data: { name, type: 'subject' },
    relations: {},
  }));
  const description: Bundle = {
    id: `${id}.eng`,
    type: 'DocumentaryUnitDescription',
    data: { name: `Unit ${id}`, languageCode: 'eng' },
    relations: { relatesTo },
  };
  return { id, type: 'DocumentaryUnit', data: { identifier: id }, relations: { describes: [description] } };
}

/** The reference's link rows (`ImportResourceClientTest.testImportLinks`). */
const GOOD_ROWS = [
  ['r1', 'c1', '', 'associative', '', 'Test'],
  ['r1', 'c1', 'ur1', 'associative', '', 'Test 2'],
  ['r4', 'c4', '', 'associative', '', 'Test 3'],
];
const BAD_ROW = ['BAD', 'c4', '', 'associative', '', 'Test 2'];

function csvOf(rows: string[][]): string {
  return rows
    .map((cells) => cells.map((cell) => (cell.includes(',') ? `"${cell}"` : cell)).join(','))
    .join('\n');
}

describe('POST /import/links', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
    await t.addRepository('r4');
    const heldBy = (id: string): { bundle: Bundle; edges: Partial<Record<ItemEdgeType, string[]>> } => ({
      bundle: unit(id, id === 'c1' ? { ur1: 'Subject Access 1' } : {}),
      edges: { heldBy: ['r1'] },
    });
    await t.store.write((tx) =>
      tx.putItems(['c1', 'c4'].map(heldBy).map((write) => ({ ...write, hash: itemHash(write.bundle) }))),
    );
  });
  afterEach(() => t.close());

  function importLinks(rows: unknown, query: Record<string, string> = {}) {
    return t.post('links', { commit: 'true', ...query }).send(rows as object);
  }

  async function storedLinks(): Promise<StoredItem[]> {
    return t.store.read(async (tx) => {
      const ids = new Set([
        ...(await tx.incoming('c1', 'hasLinkTarget')),
        ...(await tx.incoming('c4', 'hasLinkTarget')),
      ]);
      return [...(await tx.getItems([...ids])).values()];
    });
  }

  it('creates one link per row with both ends, the access point as body and the user as linker', async () => {
    const response = await importLinks(GOOD_ROWS).expect(201);

    expect(response.body).toMatchObject({ created: 3, updated: 0, unchanged: 0, errors: {} });
    expect(response.body.created_keys['-']).toHaveLength(3);
    const links = await storedLinks();
    expect(links).toHaveLength(3);
    const withBody = links.find((link) => link.bundle.data.description === 'Test 2');
    expect(withBody?.bundle).toMatchObject({ type: 'Link', data: { type: 'associative' } });
    expect(withBody?.edges).toEqual({
      hasLinkTarget: ['c1', 'r1'],
      hasLinkBody: ['ur1'],
      hasLinker: [t.userId],
    });
    const plain = links.find((link) => link.bundle.data.description === 'Test 3');
    expect(plain?.edges).toEqual({ hasLinkTarget: ['c4', 'r4'], hasLinker: [t.userId] });
  });

  it('keeps the field of a row and leaves out empty cells', async () => {
    await importLinks([['c1', 'c4', '', 'hierarchical', 'relatedUnitsOfDescription', '']]).expect(201);

    const [link] = await storedLinks();
    expect(link.bundle.data).toEqual({ type: 'hierarchical', field: 'relatedUnitsOfDescription' });
  });

  it('finds the links it made when the same rows come again, as JSON or as CSV', async () => {
    const first = await importLinks(GOOD_ROWS).expect(201);
    const again = await importLinks(GOOD_ROWS).expect(201);
    const asCsv = await t
      .post('links', { commit: 'true' })
      .set('Content-Type', 'text/csv')
      .send(csvOf(GOOD_ROWS))
      .expect(201);

    for (const answer of [again.body, asCsv.body]) {
      expect(answer).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
      expect([...answer.unchanged_keys['-']].sort()).toEqual([...first.body.created_keys['-']].sort());
    }
    expect(await storedLinks()).toHaveLength(3);
  });

  it('imports a CSV table without a header row', async () => {
    const response = await t
      .post('links', { commit: 'true' })
      .set('Content-Type', 'text/csv; charset=utf-8')
      .send(`${csvOf(GOOD_ROWS)}\n`)
      .expect(201);

    expect(response.body).toMatchObject({ created: 3 });
  });

  it('refuses a row naming a missing item with 400, naming the item and its row, and writes nothing', async () => {
    const response = await importLinks([...GOOD_ROWS, BAD_ROW]).expect(400);

    expect(response.body).toMatchObject({ status: 400, error: 'Bad Request' });
    expect(response.body.details).toMatchObject({
      key: 'row 4',
      message: 'Link row 4: source item BAD not found',
    });
    expect(await storedLinks()).toHaveLength(0);
  });

  it('skips a row naming a missing item in tolerant mode and lists it under errors', async () => {
    const response = await importLinks([...GOOD_ROWS, BAD_ROW], { tolerant: 'true' }).expect(201);

    expect(response.body).toMatchObject({
      created: 3,
      errors: { 'row 4': 'Link row 4: source item BAD not found' },
    });
    expect(await storedLinks()).toHaveLength(3);
  });

  it.each([
    [
      'an unknown type',
      ['r1', 'c1', '', 'friendly', '', ''],
      /type \(column 4\) "friendly" is not one of associative, hierarchical, temporal, identity, family, copy/,
    ],
    ['five columns', ['r1', 'c1', 'associative', '', 'Test'], /a link row has 6 columns .*this one has 5/],
    [
      'an access point of neither end',
      ['r4', 'c4', 'ur1', 'associative', '', ''],
      /access point ur1 \(column 3\) is not an access point of r4 or c4/,
    ],
    [
      'a user as an end',
      ['r1', 'USER', '', 'associative', '', ''],
      /target item USER is a UserProfile, which cannot be linked/,
    ],
    [
      'an item linked to itself',
      ['c1', 'c1', '', 'associative', '', ''],
      /the source and the target are the same item \(c1\)/,
    ],
  ])('refuses %s with 400, naming the row', async (_what, row, message) => {
    const cells = row.map((cell) => (cell === 'USER' ? t.userId : cell));
    const response = await importLinks([GOOD_ROWS[0], cells]).expect(400);

    expect(response.body.details.key).toBe('row 2');
    expect(response.body.details.message.replace(t.userId, 'USER')).toMatch(message);
    expect(await storedLinks()).toHaveLength(0);
  });

  it('changes nothing on a dry run and answers what it would have done', async () => {
    const response = await t.post('links').send(GOOD_ROWS).expect(201);

    expect(response.body).toMatchObject({ created: 3, event: null });
    expect(await storedLinks()).toHaveLength(0);
  });

  it('stores one import log for the whole upload', async () => {
    const response = await importLinks(GOOD_ROWS).expect(201);

    const logs = await t.store.read((tx) =>
      tx.findRecords({ type: IMPORT_LOG_RECORD_TYPE, equals: { endpoint: 'links' } }),
    );
    expect(logs.total).toBe(1);
    expect(logs.records[0].id).toBe(response.body.event);
    expect([...(logs.records[0].props.touched as string[])].sort()).toEqual(
      [...response.body.created_keys['-']].sort(),
    );
  });

  it('refuses a body that is neither JSON nor CSV', async () => {
    const response = await t
      .post('links', { commit: 'true' })
      .set('Content-Type', 'application/xml')
      .send('<links/>')
      .expect(400);

    expect(response.body.details.message).toMatch(/A table is sent as application\/json or text\/csv/);
  });
});

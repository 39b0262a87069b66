import { addNamedItem } from '../src/named-items/named-item';
import { ItemWrite, StoredItem } from '../src/graph/graph-store';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { ItemEdgeType, ItemType } from '../src/items/item-types';
import { createImportTestApp, ImportTestApp } from './support/import-client';

type Edges = Partial<Record<ItemEdgeType, string[]>>;

/** An item with one English description holding the given access points (id → name). */
function described(id: string, type: ItemType, accessPoints: Record<string, string> = {}): Bundle {
  const relatesTo = Object.entries(accessPoints).map(([pointId, name]): Bundle => ({
    id: pointId,
    type: 'AccessPoint',
    data: { name, type: 'person' },
    relations: {},
  }));
  const description: Bundle = {
    id: `${id}.eng`,
    type: type === 'HistoricalAgent' ? 'HistoricalAgentDescription' : 'DocumentaryUnitDescription',
    data: { name: `Item ${id}`, languageCode: 'eng' },
    relations: { relatesTo },
  };
  return { id, type, data: { identifier: id }, relations: { describes: [description] } };
}

function link(id: string, type: string): Bundle {
  return { id, type: 'Link', data: { type, description: 'Test access point link' }, relations: {} };
}

/**
 * The reference's test graph, as far as coreferences go: units c1–c4 in repository r1 (c2 and c3
 * below c1), agents a1 and a2, links c1–a1 (made from access point ur1), c3–a2 (from ur3) and
 * c4–r4; and a unit x1 in repository r4, outside r1, with an access point labelled as c3's.
 */
function testGraph(user: string): [Bundle, Edges][] {
  return [
    [
      described('c1', 'DocumentaryUnit', { ur1: 'Subject Access 1', ur2: 'Person Access 1' }),
      { heldBy: ['r1'] },
    ],
    [described('c2', 'DocumentaryUnit'), { childOf: ['c1'] }],
    [described('c3', 'DocumentaryUnit', { ur3: 'Person Access 2' }), { childOf: ['c2'] }],
    [described('c4', 'DocumentaryUnit', { ur4: 'Disconnected Access 1' }), { heldBy: ['r1'] }],
    [described('x1', 'DocumentaryUnit', { ux1: 'Person Access 2' }), { heldBy: ['r4'] }],
    [described('a1', 'HistoricalAgent'), { inAuthoritativeSet: ['auths'] }],
    [described('a2', 'HistoricalAgent'), { inAuthoritativeSet: ['auths'] }],
    [link('link2', 'associative'), { hasLinkTarget: ['c1', 'a1'], hasLinkBody: ['ur1'], hasLinker: [user] }],
    [link('link3', 'associative'), { hasLinkTarget: ['c3', 'a2'], hasLinkBody: ['ur3'], hasLinker: [user] }],
    [link('link4', 'copy'), { hasLinkTarget: ['c4', 'r4'] }],
  ];
}

/** The reference's coreference table (`ImportResourceClientTest.testImportCoreferences`). */
const COREFERENCES = [
  ['Subject Access 1', 'a1'], // already linked: c1–a1 has ur1
  ['Person Access 2', 'a1'], // new link c3–a1
  ['Disconnected Access 1', 'r4'], // ur4 joins the existing link c4–r4
];

describe('POST /import/coreferences', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
    await t.addRepository('r4');
    await addNamedItem(t.store, 'AuthoritativeSet', 'auths');
    const writes: ItemWrite[] = testGraph(t.userId).map(([bundle, edges]) => ({
      bundle,
      edges,
      hash: itemHash(bundle),
    }));
    await t.store.write((tx) => tx.putItems(writes));
  });
  afterEach(() => t.close());

  function importCoreferences(rows: unknown, query: Record<string, string> = {}) {
    return t.post('coreferences', { scope: 'r1', commit: 'true', ...query }).send(rows as object);
  }

  /** The links to `itemId`, with their edges. */
  async function linksOf(itemId: string): Promise<StoredItem[]> {
    return t.store.read(async (tx) => [
      ...(await tx.getItems(await tx.incoming(itemId, 'hasLinkTarget'))).values(),
    ]);
  }

  it('links access points in the scope: a new link is created, a body added to an existing link is updated', async () => {
    const response = await importCoreferences(COREFERENCES).expect(201);

    expect(response.body).toMatchObject({ created: 1, updated: 1, unchanged: 1, errors: {} });
    expect(response.body.updated_keys).toEqual({ 'Disconnected Access 1': ['link4'] });
    expect(response.body.unchanged_keys).toEqual({ 'Subject Access 1': ['link2'] });
    const [created] = response.body.created_keys['Person Access 2'];
    const newLink = (await linksOf('c3')).find((candidate) => candidate.bundle.id === created);
    expect(newLink?.bundle.data).toEqual({ type: 'associative' });
    expect(newLink?.edges).toEqual({
      hasLinkTarget: ['a1', 'c3'],
      hasLinkBody: ['ur3'],
      hasLinker: [t.userId],
    });
    const [link4] = await linksOf('c4');
    expect(link4.edges).toEqual({ hasLinkTarget: ['c4', 'r4'], hasLinkBody: ['ur4'] });
    expect(link4.bundle.data).toEqual({ type: 'copy', description: 'Test access point link' });
  });

  it('leaves items outside the scope alone, even with an access point of the same label', async () => {
    await importCoreferences(COREFERENCES).expect(201);

    expect(await linksOf('x1')).toEqual([]);
  });

  it('takes only the access points below the scope item', async () => {
    const response = await importCoreferences(COREFERENCES, { scope: 'c2' }).expect(201);

    // Only c3 lies below c2: c1's and c4's access points are outside.
    expect(response.body).toMatchObject({ created: 1, updated: 0, unchanged: 0 });
    expect(Object.keys(response.body.created_keys)).toEqual(['Person Access 2']);
  });

  it('matches labels exactly', async () => {
    const response = await importCoreferences([
      ['person access 2', 'a1'],
      ['Person Access', 'a1'],
    ]).expect(201);

    expect(response.body).toMatchObject({ created: 0, updated: 0, unchanged: 0 });
  });

  it('changes nothing when imported again', async () => {
    await importCoreferences(COREFERENCES).expect(201);
    const again = await importCoreferences(COREFERENCES).expect(201);

    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(await linksOf('c3')).toHaveLength(2);
  });

  it('changes nothing on a dry run', async () => {
    const response = await importCoreferences(COREFERENCES, { commit: 'false' }).expect(201);

    expect(response.body).toMatchObject({ created: 1, updated: 1, event: null });
    expect(await linksOf('c3')).toHaveLength(1);
    const [link4] = await linksOf('c4');
    expect(link4.edges.hasLinkBody).toBeUndefined();
  });

  it('reads the table as CSV too', async () => {
    const body = COREFERENCES.map((row) => row.join(',')).join('\r\n');
    const response = await t
      .post('coreferences', { scope: 'r1', commit: 'true' })
      .set('Content-Type', 'text/csv')
      .send(body)
      .expect(201);

    expect(response.body).toMatchObject({ created: 1, updated: 1, unchanged: 1 });
  });

  it('refuses a missing target with 400, naming it and its row, and changes nothing', async () => {
    const response = await importCoreferences([...COREFERENCES, ['Person Access 1', 'zz9']]).expect(400);

    expect(response.body.details).toMatchObject({
      key: 'row 4',
      message: 'Coreference row 4: target item zz9 not found',
    });
    expect(await linksOf('c3')).toHaveLength(1);
  });

  it('skips a missing target in tolerant mode, listing it under errors', async () => {
    const response = await importCoreferences([['Person Access 1', 'zz9'], ...COREFERENCES], {
      tolerant: 'true',
    }).expect(201);

    expect(response.body).toMatchObject({
      created: 1,
      updated: 1,
      errors: { 'row 1': 'Coreference row 1: target item zz9 not found' },
    });
  });

  it('refuses a row that does not have two columns', async () => {
    const response = await importCoreferences([['Person Access 2', 'a1', 'extra']]).expect(400);

    expect(response.body.details.message).toBe(
      'Coreference row 1: a coreference row has 2 columns (access point label, target ID), this one has 3',
    );
  });

  it('needs a scope', async () => {
    const response = await t.post('coreferences', { commit: 'true' }).send(COREFERENCES).expect(400);

    expect(response.body.details).toBe('The coreferences import needs a scope');
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { ItemWrite, StoredItem } from '../src/graph/graph-store';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { addReferenceRepository } from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { EHRI_FIXTURES } from './support/fixture-paths';

const EHRI = EHRI_FIXTURES;

/** A unit of a finding aid written for these tests: its local id, places and child units. */
interface UnitSpec {
  localId: string;
  places?: string[];
  children?: UnitSpec[];
}

function unit(localId: string, ...children: UnitSpec[]): UnitSpec {
  return { localId, children };
}

function unitContent({ localId, places = [], children = [] }: UnitSpec): string {
  const access = places.map((place) => `<geogname>${place}</geogname>`).join('');
  return (
    `<did><unitid>${localId}</unitid><unittitle>Unit ${localId}</unittitle></did>` +
    (access === '' ? '' : `<controlaccess>${access}</controlaccess>`) +
    (children.length === 0
      ? ''
      : `<dsc>${children.map((child) => `<c>${unitContent(child)}</c>`).join('')}</dsc>`)
  );
}

/** An EAD 2002 finding aid in English for one fonds. */
function ead(fonds: UnitSpec): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<ead xmlns="urn:isbn:1-931666-22-9">
  <eadheader>
    <eadid>${fonds.localId}</eadid>
    <filedesc><titlestmt><titleproper>Fonds ${fonds.localId}</titleproper></titlestmt></filedesc>
    <profiledesc><langusage><language langcode="eng">English</language></langusage></profiledesc>
  </eadheader>
  <archdesc level="fonds">${unitContent(fonds)}</archdesc>
</ead>`;
}

/** A link between two units, made from an access point when `bodies` names it. */
function linkWrite(id: string, targets: string[], bodies: string[] = []): ItemWrite {
  const bundle: Bundle = { id, type: 'Link', data: { type: 'associative' }, relations: {} };
  const edges =
    bodies.length === 0 ? { hasLinkTarget: targets } : { hasLinkTarget: targets, hasLinkBody: bodies };
  return { bundle, edges, hash: itemHash(bundle) };
}

describe('POST /import/ead-sync', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
  });
  afterEach(() => t.close());

  function importEad(body: string, query: Record<string, string> = {}) {
    return t
      .post('ead', { scope: 'r1', commit: 'true', ...query })
      .set('Content-Type', 'application/xml')
      .send(body)
      .expect(201);
  }

  function sync(body: string, query: Record<string, string | string[]> = {}) {
    return t
      .post('ead-sync', { scope: 'r1', commit: 'true', ...query })
      .set('Content-Type', 'application/xml')
      .send(body);
  }

  async function stored(id: string): Promise<StoredItem> {
    const item = (await t.store.read((tx) => tx.getItems([id]))).get(id);
    if (item === undefined) throw new Error(`${id} is not stored`);
    return item;
  }

  /** The id of the access point named `name` on the unit's description. */
  async function accessPoint(unitId: string, name: string): Promise<string> {
    const [description] = (await stored(unitId)).bundle.relations.describes ?? [];
    const found = description?.relations.relatesTo?.find((point) => point.data.name === name);
    if (found === undefined) throw new Error(`${unitId} has no access point ${name}`);
    return found.id;
  }

  async function linkEdges(id: string): Promise<StoredItem['edges']> {
    const { hasLinkTarget, hasLinkBody } = (await stored(id)).edges;
    return hasLinkBody === undefined ? { hasLinkTarget } : { hasLinkTarget, hasLinkBody };
  }

  async function existing(ids: string[]): Promise<string[]> {
    return [...(await t.items(ids)).keys()].sort();
  }

  async function unitsOf(rootId: string): Promise<string[]> {
    return (await t.store.read((tx) => tx.subtree(rootId))).map((entry) => entry.id).sort();
  }

  it('deletes the units the file no longer has and creates the new ones', async () => {
    await importEad(ead(unit('F', unit('A', unit('K')), unit('B'))));

    const response = await sync(ead(unit('F', unit('A'), unit('C')))).expect(201);

    expect(response.body).toEqual({
      log: expect.objectContaining({ created: 1, unchanged: 2, created_keys: { '-': ['r1-f-c'] } }),
      created: ['r1-f-c'],
      deleted: ['r1-f-a-k', 'r1-f-b'],
      moved: {},
    });
    expect(await unitsOf('r1')).toEqual(['r1-f', 'r1-f-a', 'r1-f-c']);
  });

  it('moves a re-parented unit, with its links and the links made from its access points', async () => {
    await importEad(ead(unit('F', unit('A'), { localId: 'B', places: ['Berlin', 'Warsaw'] })));
    const oldWarsaw = await accessPoint('r1-f-b', 'Warsaw');
    await t.store.write((tx) =>
      tx.putItems([
        linkWrite('link-to-b', ['r1-f-a', 'r1-f-b']),
        linkWrite('link-from-warsaw', ['r1-f-b', 'r1-f-a'], [oldWarsaw]),
      ]),
    );

    // B, with its access points in another order, is now below A.
    const movedB = { localId: 'B', places: ['Warsaw', 'Berlin'] };
    const response = await sync(ead(unit('F', { localId: 'A', children: [movedB] }))).expect(201);

    expect(response.body).toMatchObject({ created: [], deleted: [], moved: { 'r1-f-b': 'r1-f-a-b' } });
    expect(response.body.log).toMatchObject({ created: 1, created_keys: { '-': ['r1-f-a-b'] } });
    expect(await existing(['r1-f-b', 'r1-f-a-b'])).toEqual(['r1-f-a-b']);
    const newWarsaw = await accessPoint('r1-f-a-b', 'Warsaw');
    expect(newWarsaw).not.toBe(oldWarsaw);
    expect(await linkEdges('link-to-b')).toEqual({ hasLinkTarget: ['r1-f-a', 'r1-f-a-b'] });
    expect(await linkEdges('link-from-warsaw')).toEqual({
      hasLinkTarget: ['r1-f-a', 'r1-f-a-b'],
      hasLinkBody: [newWarsaw],
    });
  });

  it('keeps the excluded units and their descendants, and deletes the rest', async () => {
    await importEad(ead(unit('F', unit('A', unit('K', unit('L'))), unit('B'), unit('C'))));

    const response = await sync(ead(unit('F', unit('B'))), { ex: ['r1-f-a', 'r1-f-elsewhere'] }).expect(201);

    expect(response.body).toMatchObject({ created: [], deleted: ['r1-f-c'], moved: {} });
    expect(await unitsOf('r1-f')).toEqual(['r1-f-a', 'r1-f-a-k', 'r1-f-a-k-l', 'r1-f-b']);
  });

  it('keeps the parent of an excluded unit, so that it is not left without one', async () => {
    await importEad(ead(unit('F', unit('A', unit('K', unit('L'))), unit('B'), unit('C'))));

    const response = await sync(ead(unit('F', unit('B'))), { ex: 'r1-f-a-k', commit: 'false' }).expect(201);

    expect(response.body.deleted).toEqual(['r1-f-c']);
  });

  it("with fonds, synchronises that fonds only, leaving the repository's other units alone", async () => {
    await importEad(ead(unit('F', unit('A'), unit('B'))));
    await importEad(ead(unit('G', unit('H'))));
    const file = ead(unit('F', unit('A')));

    const wholeRepository = await sync(file, { commit: 'false' }).expect(201);
    expect(wholeRepository.body.deleted).toEqual(['r1-f-b', 'r1-g', 'r1-g-h']);

    const response = await sync(file, { fonds: 'r1-f' }).expect(201);
    expect(response.body).toMatchObject({ created: [], deleted: ['r1-f-b'], moved: {} });
    expect(await unitsOf('r1')).toEqual(['r1-f', 'r1-f-a', 'r1-g', 'r1-g-h']);
  });

  it('refuses a fonds that is not a unit inside the scope, and an unknown one', async () => {
    await t.addRepository('r2');
    await t
      .post('ead', { scope: 'r2', commit: 'true' })
      .set('Content-Type', 'application/xml')
      .send(ead(unit('X')))
      .expect(201);
    await importEad(ead(unit('F', unit('A'))));

    const outside = await sync(ead(unit('F')), { fonds: 'r2-x' }).expect(400);
    expect(outside.body.details.message).toBe('Fonds r2-x is not a documentary unit inside the scope r1');
    await sync(ead(unit('F')), { fonds: 'r1' }).expect(400);
    const unknown = await sync(ead(unit('F')), { fonds: 'r1-nothing' }).expect(404);
    expect(unknown.body.details).toBe('Fonds not found: r1-nothing');
    expect(await unitsOf('r1')).toEqual(['r1-f', 'r1-f-a']);
  });

  it('refuses local ids that the stored units of the scope share, changing nothing', async () => {
    await importEad(ead(unit('F', unit('A', unit('X')), unit('B', unit('X')))));

    const response = await sync(ead(unit('F', unit('A'), unit('C')))).expect(400);

    expect(response.body.details.message).toBe(
      'Local identifiers are not unique in the sync scope: X (r1-f-a-x, r1-f-b-x)',
    );
    expect(await unitsOf('r1')).toEqual(['r1-f', 'r1-f-a', 'r1-f-a-x', 'r1-f-b', 'r1-f-b-x']);
  });

  it('refuses local ids that the incoming units share, changing nothing', async () => {
    await importEad(ead(unit('F', unit('A'), unit('B'))));

    const elsewhere = await sync(ead(unit('F', unit('A', unit('X')), unit('B', unit('X'))))).expect(400);
    expect(elsewhere.body.details.message).toMatch(/not unique in the sync scope: X \(r1-f-a-x, r1-f-b-x\)$/);

    const siblings = await sync(ead(unit('F', unit('A'), unit('A'), unit('C')))).expect(400);
    expect(siblings.body.details).toMatchObject({
      message: expect.stringMatching(/<c> at line \d+: r1-f-a is already the id of <c> at line \d+/),
      tag: '-',
    });
    expect(await unitsOf('r1')).toEqual(['r1-f', 'r1-f-a', 'r1-f-b']);
  });

  it('keeps sibling units with one local id with duplicate-unitid=position, and syncs them again unchanged', async () => {
    await importEad(ead(unit('F', unit('A'), unit('B'))));
    const repeated = ead(unit('F', unit('A', unit('K')), unit('A', unit('L')), unit('a')));

    const first = await sync(repeated, { 'duplicate-unitid': 'position' }).expect(201);
    expect(first.body).toMatchObject({
      created: ['r1-f-a-k', 'r1-f-a_2', 'r1-f-a_2-l', 'r1-f-a_3'],
      deleted: ['r1-f-b'],
      moved: {},
    });
    expect(await unitsOf('r1')).toEqual(['r1-f', 'r1-f-a', 'r1-f-a-k', 'r1-f-a_2', 'r1-f-a_2-l', 'r1-f-a_3']);

    const again = await sync(repeated, { 'duplicate-unitid': 'position' }).expect(201);
    expect(again.body).toMatchObject({ created: [], deleted: [], moved: {} });
    expect(again.body.log).toMatchObject({ created: 0, updated: 0, unchanged: 6, errors: {} });
  });

  it('with tolerant=true, skips the later of two sibling units with one id, and its descendants', async () => {
    const response = await sync(ead(unit('F', unit('A'), unit('A', unit('K')))), { tolerant: 'true' }).expect(
      201,
    );
    expect(response.body.log).toMatchObject({ created: 2 });
    expect(Object.values(response.body.log.errors)).toEqual([
      expect.stringContaining('Parent item has no id: <c> at line'),
      expect.stringMatching(/<c> at line \d+: r1-f-a is already the id of <c> at line \d+/),
    ]);
    expect(await unitsOf('r1')).toEqual(['r1-f', 'r1-f-a']);
  });

  it('in a dry run, says what it would do and changes nothing', async () => {
    await importEad(ead(unit('F', unit('A'), unit('B'), unit('C'))));

    const response = await sync(ead(unit('F', unit('A', unit('B')), unit('D'))), { commit: 'false' }).expect(
      201,
    );

    expect(response.body).toEqual({
      log: expect.objectContaining({ created: 2, event: null }),
      created: ['r1-f-d'],
      deleted: ['r1-f-c'],
      moved: { 'r1-f-b': 'r1-f-a-b' },
    });
    expect(await unitsOf('r1')).toEqual(['r1-f', 'r1-f-a', 'r1-f-b', 'r1-f-c']);
  });

  it('stores its answer with the import log, and the ids it deleted, moved, created and relinked', async () => {
    await importEad(ead(unit('F', unit('A'), unit('B'), unit('C'))));
    await t.store.write((tx) => tx.putItems([linkWrite('link-to-b', ['r1-f-a', 'r1-f-b'])]));
    const opsToken = await t.token('ops');

    const response = await sync(ead(unit('F', unit('A', unit('B')), unit('D'))), {
      log: 'Spring sync',
    }).expect(201);

    expect(response.body.log.message).toBe('Spring sync');
    const record = await request(t.server)
      .get(`/import/logs/${response.body.log.event}`)
      .set('Authorization', `Bearer ${opsToken}`)
      .expect(200);
    expect(record.body).toMatchObject({
      endpoint: 'ead-sync',
      log: response.body.log,
      result: response.body,
    });
    expect([...record.body.touched].sort()).toEqual(['link-to-b', 'r1-f-a-b', 'r1-f-b', 'r1-f-c', 'r1-f-d']);
  });

  it("synchronises whatever reader the reference's handler and importer names choose", async () => {
    await importEad(ead(unit('F', unit('A'), unit('B'))));

    const response = await sync(ead(unit('F', unit('A'))), {
      handler: 'eu.ehri.project.importers.ead.EadHandler',
      importer: 'EadImporter',
    }).expect(201);

    expect(response.body.deleted).toEqual(['r1-f-b']);
  });

  describe("the reference's sync of hierarchical-ead.xml", () => {
    const original = readFileSync(path.join(EHRI, 'hierarchical-ead.xml'), 'utf8');
    // Its two c03 units, C00002-1 and C00002-2.
    const [first, second] = [...original.matchAll(/<c03>[\s\S]*?<\/c03>/g)].map(([component]) => component);
    // The reference's hierarchical-ead-sync-test.xml: C00002-1 is gone; C00002-2 is now inside a
    // new unit C00002-2_parent.
    const synced = original
      .replace(first, '')
      .replace(
        second,
        '<c03><did><unittitle>New parent</unittitle><unitid>C00002-2_parent</unitid></did>' +
          `${second.replace(/c03>/g, 'c04>')}</c03>`,
      );

    beforeEach(async () => {
      await addReferenceRepository(t);
      await importEad(original);
    });

    it.each([
      ['the repository', {}],
      ['the top-level fonds', { fonds: 'nl-r1-ctop_level_fonds' }],
    ])('gives the reference answer when syncing %s', async (_, query) => {
      const response = await sync(synced, query).expect(201);

      expect(response.body).toMatchObject({
        created: ['nl-r1-ctop_level_fonds-c00001-c00002-2_parent'],
        deleted: ['nl-r1-ctop_level_fonds-c00001-c00002-1'],
        moved: {
          'nl-r1-ctop_level_fonds-c00001-c00002-2': 'nl-r1-ctop_level_fonds-c00001-c00002-2_parent-c00002_2',
        },
        log: { created: 2, unchanged: 3 },
      });
      expect(
        await existing(['nl-r1-ctop_level_fonds-c00001-c00002-1', 'nl-r1-ctop_level_fonds-c00001-c00002-2']),
      ).toEqual([]);
    });
  });
});

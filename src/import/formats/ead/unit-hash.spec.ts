import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chunkedSource } from '../../../../test/support/chunked-source';
import { RawNode } from '../../building/raw-node';
import { EadUnit } from '../../building/unit-builder';
import { EadReadSettings, readEad } from './ead-read';
import { UNIT_BUILD, unitHasher } from './unit-hash';
import { EHRI_FIXTURES } from '../../../../test/support/fixture-paths';

const FIXTURES = EHRI_FIXTURES;

const SETTINGS: EadReadSettings = {
  scope: { id: 'nl-r1', type: 'Repository', identifiers: ['nl', 'r1'] },
  lang: 'eng',
  missingUnitId: 'error',
  duplicateUnitId: 'error',
  limits: { maxDepth: 64, maxIdLength: 1024 },
};

function unitOf(values: Record<string, string>, changes: Partial<EadUnit> = {}): EadUnit {
  const node = new RawNode();
  for (const [field, value] of Object.entries(values)) node.values.set(field, value);
  return {
    node,
    localId: 'c1',
    ancestorIds: ['top'],
    id: 'nl-r1-top-c1',
    parentId: 'nl-r1-top',
    maintenanceEvents: [],
    line: 10,
    column: 4,
    ...changes,
  };
}

describe('unitHasher', () => {
  const hashOf = unitHasher(SETTINGS);
  const base = hashOf(unitOf({ name: 'Letters' }));

  it('gives a unit the same hash wherever in the document it ends', () => {
    expect(hashOf(unitOf({ name: 'Letters' }, { line: 900, column: 1 }))).toBe(base);
  });

  it('gives another hash to a unit with other content, place in the tree or settings', () => {
    const withSubNode = unitOf({ name: 'Letters' });
    withSubNode.node.addSubNode('subjectAccessPoint', new RawNode());
    const others = [
      hashOf(unitOf({ name: 'Letter' })),
      hashOf(unitOf({ name: 'Letters', scopeAndContent: '' })),
      hashOf(withSubNode),
      hashOf(unitOf({ name: 'Letters' }, { parentId: 'nl-r1-other', ancestorIds: ['other'] })),
      hashOf(unitOf({ name: 'Letters' }, { maintenanceEvents: [{ eventType: 'created' }] })),
      unitHasher({ ...SETTINGS, lang: 'fre' })(unitOf({ name: 'Letters' })),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });

  /**
   * What the fixtures' units build into, for the build that `UNIT_BUILD` names. When this fails,
   * units build into other items than before: raise `UNIT_BUILD` (stored hashes of the old build
   * must not pass items for unchanged) and record the new digest with it. A write's `ancestors`
   * is left out: a hint for placing the item, not what is stored, and made from the unit's ids,
   * which the hash covers.
   */
  const BUILT = { unitBuild: 2, digest: 'xXLyZP8F_T0BNCAReUfuczSnoobYDdXV-FYaHn-yecY' };

  it('is raised whenever the same units build into other items', async () => {
    const built: unknown[] = [];
    for (const name of ['comprehensive-ead.xml', 'hierarchical-ead.xml', 'irn1351.xml', 'ead.xml']) {
      const source = chunkedSource(readFileSync(path.join(FIXTURES, name)), name, 4096);
      for await (const event of readEad(source, SETTINGS)) {
        if (event.kind === 'item') {
          const { ancestors: _hint, ...write } = event.write;
          built.push(write);
        }
      }
    }
    expect(built.length).toBeGreaterThan(10);
    const digest = hash('sha256', JSON.stringify(built), 'base64url');
    expect({ unitBuild: UNIT_BUILD, digest }).toEqual(BUILT);
  });

  /**
   * What reading the fixtures gives (ids, change hashes, refusals) for the build that `UNIT_BUILD`
   * names. When this fails, the same documents read into other units than before: raise
   * `UNIT_BUILD` (hashes of the old build must not pass units for unchanged) and record the new
   * digest with it.
   */
  const READ = { unitBuild: 2, digest: 'H0dtxWATqAuwXQ_B8q7SqRPLtCpD_iIXtiWKyA_kXTo' };

  it('is raised whenever the same documents read into other units', async () => {
    const read: unknown[] = [];
    let refusals = 0;
    const names = ['comprehensive-ead.xml', 'hierarchical-ead.xml', 'ead.xml', 'anonymous-c-levels.xml'];
    for (const name of names) {
      const source = chunkedSource(readFileSync(path.join(FIXTURES, name)), name, 4096);
      for await (const event of readEad(source, SETTINGS)) {
        if (event.kind === 'invalid') refusals += 1;
        read.push(event.kind === 'item' ? [event.write.bundle.id, event.hash] : [event.key, event.message]);
      }
    }
    expect(refusals).toBe(2);
    const digest = hash('sha256', JSON.stringify(read), 'base64url');
    expect({ unitBuild: UNIT_BUILD, digest }).toEqual(READ);
  });
});

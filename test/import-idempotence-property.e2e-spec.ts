import fc from 'fast-check';
import { childId, joinPath } from '../src/items/identifiers';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/** A unit of a generated finding aid. */
interface UnitSpec {
  /** Its `unitid`: undefined for none; some repeat one another, some are placeholders. */
  unitId: string | undefined;
  /** Its `id` attribute, which missing-unitid=attribute takes. */
  idAttribute: string | undefined;
  children: readonly UnitSpec[];
}

// Few enough that siblings share them, or differ only in case, punctuation or white space.
const UNIT_IDS = ['A', 'a', 'A.', 'a b', 'A B', 'B', '1', 'C12', 'c12_2'];
const PLACEHOLDERS = ['---', '...', '-', ' '];

const unitId = fc.option(fc.constantFrom(...UNIT_IDS, ...PLACEHOLDERS), { nil: undefined, freq: 6 });
const idAttribute = fc.option(fc.constantFrom('x', 'X', 'y', '--'), { nil: undefined });

const { unit } = fc.letrec<{ unit: UnitSpec }>((tie) => ({
  unit: fc.record({
    unitId,
    idAttribute,
    children: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'finding-aid' },
      fc.constant([]),
      fc.array(tie('unit'), { maxLength: 4 }),
    ),
  }),
}));

const settings = fc.record({
  'missing-unitid': fc.constantFrom('error', 'attribute', 'position'),
  'duplicate-unitid': fc.constantFrom('error', 'position'),
});

function countUnits({ children }: UnitSpec): number {
  return 1 + children.reduce((sum, child) => sum + countUnits(child), 0);
}

/** The finding aid's XML: the root is the `archdesc`, the others `c` (each with its own title). */
function findingAid(root: UnitSpec): string {
  let titles = 0;
  const content = ({ unitId: id, children }: UnitSpec): string => {
    const unitIdElement = id === undefined ? '' : `<unitid>${id}</unitid>`;
    const did = `<did>${unitIdElement}<unittitle>Unit ${++titles}</unittitle></did>`;
    const dsc = children.map((child) => component(child)).join('\n');
    return did + (children.length === 0 ? '' : `<dsc>${dsc}</dsc>`);
  };
  const attribute = ({ idAttribute: id }: UnitSpec) => (id === undefined ? '' : ` id="${id}"`);
  const component = (spec: UnitSpec): string => `<c${attribute(spec)}>${content(spec)}</c>`;
  return `<ead><eadheader><eadid>G</eadid></eadheader>
<archdesc level="fonds"${attribute(root)}>${content(root)}</archdesc></ead>`;
}

interface ImportLog {
  created: number;
  updated: number;
  unchanged: number;
  created_keys: Record<string, string[]>;
  unchanged_keys: Record<string, string[]>;
  errors: Record<string, string>;
}

describe('property: generated finding aids with repeated, placeholder and missing unit ids', () => {
  let t: ImportTestApp;
  let repositories = 0;

  beforeAll(async () => {
    // Over a hundred imports in a minute, one at a time: no limit refuses them.
    t = await createImportTestApp();
  });
  afterAll(() => t.close());

  /** A new, empty repository in the Netherlands for each finding aid. */
  async function newRepository(): Promise<string> {
    const id = `g${++repositories}`;
    await t.addRepository(id);
    await t.store.write((tx) => tx.addEdges([{ from: id, type: 'hasCountry', to: 'nl' }]));
    return id;
  }

  async function importInto(
    repository: string,
    body: string,
    query: Record<string, string>,
  ): Promise<ImportLog> {
    const response = await t
      .post('ead', { scope: repository, commit: 'true', tolerant: 'true', ...query })
      .set('Content-Type', 'application/xml')
      .send(body)
      .expect(201);
    return response.body as ImportLog;
  }

  /** Every stored unit's id is the identifier rules' id of its ancestors' and its own identifiers. */
  async function checkIds(repository: string, created: readonly string[]): Promise<void> {
    const entries = await t.store.read((tx) => tx.subtree(repository));
    expect(entries.map((entry) => entry.id).sort()).toEqual([...created].sort());
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    for (const entry of entries) {
      expect(entry.id.split('-').every((segment) => segment !== '')).toBe(true);
      const parent = byId.get(entry.parentId);
      const expected =
        parent === undefined
          ? joinPath(['nl', repository, entry.localId])
          : childId(parent.id, parent.localId, entry.localId);
      expect(entry.id).toBe(expected);
    }
  }

  it('imports each so that created + errors = units, ids follow the rules, and again all unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(unit, settings, async (root, query) => {
        const repository = await newRepository();
        const body = findingAid(root);
        const units = countUnits(root);

        const first = await importInto(repository, body, query);
        const created = Object.values(first.created_keys).flat();
        expect(first).toMatchObject({ created: created.length, updated: 0, unchanged: 0 });
        expect(first.created + Object.keys(first.errors).length).toBe(units);
        if (query['missing-unitid'] === 'position' && query['duplicate-unitid'] === 'position') {
          expect(first.errors).toEqual({});
        }
        await checkIds(repository, created);

        const second = await importInto(repository, body, query);
        expect(second).toMatchObject({
          created: 0,
          updated: 0,
          unchanged: first.created,
          errors: first.errors,
        });
        expect(Object.values(second.unchanged_keys).flat().sort()).toEqual(created.sort());
      }),
      { numRuns: 60 },
    );
  });
});

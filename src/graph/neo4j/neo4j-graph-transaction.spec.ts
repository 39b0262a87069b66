import { isInt, Record as ResultRecord } from 'neo4j-driver';
import { ItemWrite } from '../graph-store';
import { ALL_STATEMENTS } from './cypher';
import { Neo4jGraphWriter } from './neo4j-graph-transaction';
import { statementRunner } from './statement-runner';

interface Sent {
  name: string;
  parameters: Record<string, unknown>;
}

/** A writer whose statements are recorded instead of sent; each answers `answer(name)`. */
function recordingWriter(answer: (name: string) => Record<string, unknown>[] = () => []) {
  const sent: Sent[] = [];
  const writer = new Neo4jGraphWriter(
    statementRunner({
      run: (text, parameters) => {
        const name = ALL_STATEMENTS.find((statement) => statement.text === text)!.name;
        sent.push({ name, parameters });
        const records = answer(name).map((row) => ({ get: (key: string) => row[key] }) as ResultRecord);
        return Promise.resolve({ records });
      },
    }),
  );
  return { sent, writer };
}

function unit(index: number): ItemWrite {
  const id = `u${index}`;
  return {
    hash: `hash-${id}`,
    edges: { heldBy: ['r1'] },
    bundle: {
      id,
      type: 'DocumentaryUnit',
      data: { identifier: id },
      relations: {
        describes: [
          {
            id: `${id}.eng`,
            type: 'DocumentaryUnitDescription',
            data: { name: `Unit ${index}`, languageCode: 'eng' },
            relations: {
              relatesTo: [
                { id: `${id}.eng.ap0`, type: 'AccessPoint', data: { name: 'Berlin' }, relations: {} },
              ],
            },
          },
        ],
      },
    },
  };
}

const units = (count: number) => Array.from({ length: count }, (_, index) => unit(index));
const rowsOf = (sent: Sent[], name: string) =>
  sent.filter((call) => call.name === name).flatMap((call) => call.parameters.rows as unknown[]);

describe('Neo4jGraphWriter.putItems', () => {
  it('writes thousands of items in a few batch statements, not one round trip per item', async () => {
    const { sent, writer } = recordingWriter();
    await writer.putItems(units(2500));

    expect(sent.length).toBeLessThanOrEqual(3 * 10);
    expect(rowsOf(sent, 'MERGE_ITEMS[DocumentaryUnit]')).toHaveLength(2500);
    expect(rowsOf(sent, 'MERGE_DEPENDENTS[DocumentaryUnitDescription]')).toHaveLength(2500);
    expect(rowsOf(sent, 'MERGE_DEPENDENTS[AccessPoint]')).toHaveLength(2500);
    expect(rowsOf(sent, 'LINK_TO_ITEM[describes]')).toHaveLength(2500);
    expect(rowsOf(sent, 'LINK_TO_DEPENDENT[relatesTo]')).toHaveLength(2500);
    expect(rowsOf(sent, 'ADD_EDGES[heldBy]')).toHaveLength(2500);
    for (const call of sent) {
      const size = ((call.parameters.rows ?? call.parameters.ids ?? call.parameters.owners) as unknown[])
        .length;
      expect(size).toBeLessThanOrEqual(1000);
    }
  });

  it('writes every node before any item edge, so an edge may point further down the list', async () => {
    const { sent, writer } = recordingWriter();
    await writer.putItems(units(1500));
    const names = sent.map((call) => call.name);
    const lastNodeWrite = names.map((name) => name.startsWith('MERGE_')).lastIndexOf(true);
    const firstEdgeWrite = names.findIndex((name) => name.includes('EDGES'));
    expect(firstEdgeWrite).toBeGreaterThan(lastNodeWrite);
  });

  it('replaces only the edge types a write names, an empty list clearing the type', async () => {
    const { sent, writer } = recordingWriter();
    await writer.putItems([{ ...unit(1), edges: { heldBy: [], hasPermissionScope: ['r2'] } }]);
    const edgeCalls = sent.filter((call) => call.name.includes('EDGES'));
    expect(edgeCalls).toEqual([
      { name: 'DELETE_EDGES[heldBy]', parameters: { ids: ['u1'] } },
      { name: 'DELETE_EDGES[hasPermissionScope]', parameters: { ids: ['u1'] } },
      { name: 'ADD_EDGES[hasPermissionScope]', parameters: { rows: [{ from: 'u1', to: 'r2' }] } },
    ]);
  });

  it('keeps the dependents a rewrite still has and prunes the rest', async () => {
    const { sent, writer } = recordingWriter();
    await writer.putItems([unit(1)]);
    expect(sent.find((call) => call.name === 'PRUNE_DEPENDENTS')!.parameters).toEqual({
      rows: [{ owner: 'u1', keep: ['u1.eng', 'u1.eng.ap0'] }],
    });
  });
});

describe('Neo4jGraphWriter.putItems of items the transaction found absent', () => {
  const foundOnly = (ids: string[]) => (name: string) =>
    name === 'GET_ITEM_PROPERTY' ? ids.map((id) => ({ id, value: `hash-${id}` })) : [];

  it('makes them in one step each, with nothing to match, prune, unlink or delete first', async () => {
    const { sent, writer } = recordingWriter(foundOnly(['u0']));
    await writer.getHashes(['u0', 'u1', 'u2']);
    sent.length = 0;
    await writer.putItems(units(3));
    const names = sent.map((call) => call.name);
    expect(names).toEqual([
      'PLACEHOLDERS_AMONG',
      'CREATE_ITEMS[DocumentaryUnit]',
      'CREATE_DEPENDENTS[DocumentaryUnitDescription]',
      'CREATE_DEPENDENTS[AccessPoint]',
      'LINK_TO_ITEM[describes]',
      'LINK_TO_DEPENDENT[relatesTo]',
      // u0 exists: the long way, for it alone.
      'MERGE_ITEMS[DocumentaryUnit]',
      'PRUNE_DEPENDENTS',
      'UNLINK_DEPENDENTS',
      'MERGE_DEPENDENTS[DocumentaryUnitDescription]',
      'MERGE_DEPENDENTS[AccessPoint]',
      'LINK_TO_ITEM[describes]',
      'LINK_TO_DEPENDENT[relatesTo]',
      'DELETE_EDGES[heldBy]',
      'ADD_EDGES[heldBy]',
    ]);
    expect(rowsOf(sent, 'CREATE_ITEMS[DocumentaryUnit]').map((row) => (row as { id: string }).id)).toEqual([
      'u1',
      'u2',
    ]);
    expect(sent.find((call) => call.name === 'DELETE_EDGES[heldBy]')!.parameters).toEqual({ ids: ['u0'] });
    expect(rowsOf(sent, 'ADD_EDGES[heldBy]')).toHaveLength(3);
  });

  it('lets a new item or dependent that edges already point at take over their placeholder', async () => {
    const placeholders = (name: string) =>
      name === 'PLACEHOLDERS_AMONG' ? [{ id: 'u1' }, { id: 'u2.eng' }] : [];
    const { sent, writer } = recordingWriter(placeholders);
    await writer.getHashes(['u1', 'u2']);
    sent.length = 0;
    await writer.putItems([unit(1), unit(2)]);
    expect(sent[0].parameters).toEqual({ ids: ['u1', 'u2', 'u1.eng', 'u1.eng.ap0', 'u2.eng', 'u2.eng.ap0'] });
    const ids = (name: string) => rowsOf(sent, name).map((row) => (row as { id: string }).id);
    expect(ids('CREATE_ITEMS[DocumentaryUnit]')).toEqual(['u2']);
    expect(ids('CLAIM_ITEMS[DocumentaryUnit]')).toEqual(['u1']);
    expect(ids('CREATE_DEPENDENTS[DocumentaryUnitDescription]')).toEqual(['u1.eng']);
    expect(ids('CLAIM_DEPENDENTS[DocumentaryUnitDescription]')).toEqual(['u2.eng']);
    expect(ids('CREATE_DEPENDENTS[AccessPoint]')).toEqual(['u1.eng.ap0', 'u2.eng.ap0']);
  });

  it('writes an item the long way once it is written, and one named twice in a write', async () => {
    const { sent, writer } = recordingWriter();
    await writer.getHashes(['u1', 'u2']);
    await writer.putItems([unit(1)]);
    sent.length = 0;
    await writer.putItems([unit(1), unit(2), unit(2)]);
    expect(sent.map((call) => call.name).filter((name) => name.startsWith('CREATE_'))).toEqual([]);
    expect(rowsOf(sent, 'MERGE_ITEMS[DocumentaryUnit]')).toHaveLength(3);
  });
});

describe('Neo4jGraphWriter edges and records', () => {
  it('adds each distinct edge once', async () => {
    const { sent, writer } = recordingWriter();
    const edge = { from: 'l1', type: 'hasLinkTarget' as const, to: 'u1' };
    await writer.addEdges([edge, edge, { ...edge, to: 'u2' }]);
    expect(sent).toEqual([
      {
        name: 'ADD_EDGES[hasLinkTarget]',
        parameters: {
          rows: [
            { from: 'l1', to: 'u1' },
            { from: 'l1', to: 'u2' },
          ],
        },
      },
    ]);
  });

  it('sends nothing to move edges onto the item they already point at', async () => {
    const { sent, writer } = recordingWriter();
    await writer.retargetEdges('u1', 'u1', 'hasLinkTarget');
    expect(sent).toEqual([]);
  });

  it('refuses a record type that is one of its own labels', async () => {
    const { sent, writer } = recordingWriter();
    await expect(writer.putRecords([{ id: 'x', type: 'Item', props: {} }])).rejects.toThrow(
      'Record type "Item" is a label the Neo4j store reserves',
    );
    expect(sent).toEqual([]);
  });
});

describe('Neo4jGraphReader.search', () => {
  const summarised = (name: string) =>
    name.endsWith('.summary') ? [{ total: 40, types: [], languages: [], countries: [], holders: [] }] : [];

  it('browses by id when the text has no words, and pages with integers', async () => {
    const { sent, writer } = recordingWriter(summarised);
    await writer.search({ text: ' "* ', types: ['Country'], offset: 20, limit: 10 });
    expect(sent.map((call) => call.name)).toEqual([
      'SEARCH.browse.everywhere.summary',
      'SEARCH.browse.everywhere.page',
    ]);
    const page = sent[1].parameters;
    expect(page.types).toEqual(['Country']);
    expect(page).toMatchObject({ orderKey: 'id', descending: false, languages: null });
    expect(isInt(page.offset) && isInt(page.limit)).toBe(true);
    expect([Number(page.offset), Number(page.limit)]).toEqual([20, 10]);
  });

  it('searches the full-text index within the scope asked for', async () => {
    const { sent, writer } = recordingWriter(summarised);
    await writer.search({ text: 'camp', scope: { id: 'r1', depth: 'descendants' }, offset: 0, limit: 10 });
    expect(sent.map((call) => call.name)).toEqual([
      'SEARCH.text.descendants.summary',
      'SEARCH.text.descendants.page',
    ]);
    expect(sent[0].parameters).toMatchObject({
      query: '(_names:camp*^2 OR _text:camp*)',
      types: [],
      scopeId: 'r1',
    });
    expect(sent[1].parameters).toMatchObject({ orderKey: 'score', descending: false });
  });

  it('asks for no page beyond the total', async () => {
    const { sent, writer } = recordingWriter(summarised);
    const result = await writer.search({ offset: 40, limit: 10 });
    expect(result).toEqual({ total: 40, hits: [] });
    expect(sent.map((call) => call.name)).toEqual(['SEARCH.browse.everywhere.summary']);
  });
});

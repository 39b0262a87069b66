import { GET_ITEM_PROPERTY, RETARGET_EDGES } from './cypher';
import { CypherRunner, statementRunner } from './statement-runner';

function recordingRunner() {
  const sent: { text: string; parameters: Record<string, unknown> }[] = [];
  const runner: CypherRunner = {
    run: (text, parameters) => {
      sent.push({ text, parameters });
      return Promise.resolve({ records: [] });
    },
  };
  return { sent, run: statementRunner(runner) };
}

describe('statementRunner', () => {
  it('sends the statement text with exactly its declared parameters', async () => {
    const { sent, run } = recordingRunner();
    await run(GET_ITEM_PROPERTY, { ids: ['u1'], property: '_hash', extra: 'ignored' } as {
      ids: string[];
      property: string;
    });
    expect(sent).toEqual([{ text: GET_ITEM_PROPERTY.text, parameters: { ids: ['u1'], property: '_hash' } }]);
  });

  it('sends null but refuses a missing parameter', async () => {
    const { sent, run } = recordingRunner();
    await expect(run(RETARGET_EDGES.childOf, { fromId: 'a' } as never)).rejects.toThrow(
      'RETARGET_EDGES[childOf]: parameter $toId not given',
    );
    await run(RETARGET_EDGES.childOf, { fromId: 'a', toId: null });
    expect(sent.map((call) => call.parameters)).toEqual([{ fromId: 'a', toId: null }]);
  });

  it('refuses a statement not defined in cypher.ts, which the lint test has not seen', async () => {
    const { sent, run } = recordingRunner();
    const forged = { name: 'FORGED', text: 'MATCH (n) DETACH DELETE n', parameters: [] };
    await expect(run(forged, {})).rejects.toThrow('FORGED is not in cypher.ts');
    expect(sent).toEqual([]);
  });
});

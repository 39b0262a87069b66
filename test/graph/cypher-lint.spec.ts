import type { CypherVersion } from '@neo4j-cypher/language-support';
import type { Worker } from 'node:worker_threads';
import { ALL_STATEMENTS, CypherStatement } from '../../src/graph/neo4j/cypher';
import { startModuleWorker } from '../../src/import/module-worker';
import { ITEM_EDGE_TYPES, ITEM_TYPES } from '../../src/items/item-types';
import type { LintAnswers, LintBatch, LintRequest } from '../support/cypher-lint-worker';

/**
 * Every statement the Neo4j adapter can send, through Neo4j's own parser and semantic analysis,
 * without a server: a typo shows here at once, before the Neo4j run (`npm run test:neo4j`) sends
 * the statements to a live server.
 *
 * The lint runs in worker threads (`support/cypher-lint-worker.ts`, which says against which
 * functions, procedures, labels and relationship types). Statements are checked under Cypher 5
 * (Neo4j 5.26, and 2025.x by default) and Cypher 25 (2025.x databases set to it).
 */
const CYPHER_VERSIONS: CypherVersion[] = ['CYPHER 5', 'CYPHER 25'];
/** The lint is CPU-bound: one thread for each of CI's two cores. */
const THREADS = 2;
/** Starting the threads, each loading Neo4j's parser and semantic analysis, on a busy machine. */
const START_MS = 300_000;

const statements = ALL_STATEMENTS.map((statement): [string, CypherStatement] => [statement.name, statement]);

let linters: Worker[] = [];
let nextBatch = 0;
const waiting = new Map<number, { resolve(answers: string[][]): void; reject(error: Error): void }>();

/** Sends `requests` to one linter thread, which answers its batches in turn; its answers, in order. */
function lint(requests: LintRequest[], linter = linters[0]): Promise<string[][]> {
  const id = nextBatch++;
  const batch: LintBatch = { id, requests };
  linter.postMessage(batch);
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

async function diagnostics(
  text: string,
  parameters: readonly string[],
  version: CypherVersion = 'CYPHER 5',
): Promise<string[]> {
  const [messages] = await lint([{ kind: 'diagnostics', text, parameters, version }]);
  return messages;
}

beforeAll(async () => {
  linters = Array.from({ length: THREADS }, () =>
    startModuleWorker(require.resolve('../support/cypher-lint-worker'), {}),
  );
  for (const linter of linters) {
    linter.on('message', ({ id, answers }: LintAnswers) => {
      waiting.get(id)?.resolve(answers);
      waiting.delete(id);
    });
    // A linter that fails ends every wait with its error.
    linter.on('error', (error) => {
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    });
  }
  // Answered once each thread has loaded the lint.
  await Promise.all(linters.map((linter) => lint([{ kind: 'parameters', text: 'RETURN 1' }], linter)));
}, START_MS);

afterAll(async () => {
  await Promise.all(linters.map((linter) => linter.terminate()));
});

describe('Cypher statements of the Neo4j adapter', () => {
  /**
   * Each statement's answer, keyed `<version> <name>` or `parameters <name>`: all asked for at once,
   * dealt round the threads in the order the tests below read them, so that each test waits for its
   * own answer only while the threads work ahead.
   */
  const answers = new Map<string, Promise<string[]>>();
  const answer = (key: string) => answers.get(key) ?? Promise.reject(new Error(`nothing asked for ${key}`));

  beforeAll(() => {
    const keyed: [string, LintRequest][] = [
      ...CYPHER_VERSIONS.flatMap((version) =>
        statements.map(([name, statement]): [string, LintRequest] => [
          `${version} ${name}`,
          { kind: 'diagnostics', text: statement.text, parameters: statement.parameters, version },
        ]),
      ),
      ...statements.map(([name, statement]): [string, LintRequest] => [
        `parameters ${name}`,
        { kind: 'parameters', text: statement.text },
      ]),
    ];
    keyed.forEach(([key, request], index) => {
      const answered = lint([request], linters[index % THREADS]).then(([messages]) => messages);
      // Read by its test; a failure here is that test's.
      answered.catch(() => undefined);
      answers.set(key, answered);
    });
  });

  it('are all enumerated, each family member included', () => {
    const names = statements.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const type of ITEM_TYPES) expect(names).toContain(`MERGE_ITEMS[${type}]`);
    for (const type of ITEM_EDGE_TYPES) expect(names).toContain(`ADD_EDGES[${type}]`);
  });

  describe.each(CYPHER_VERSIONS)('under %s', (version) => {
    it.each(statements)('%s lints with no diagnostic', async (name) => {
      expect(await answer(`${version} ${name}`)).toEqual([]);
    });
  });

  it.each(statements)('%s declares exactly the parameters it uses', async (name, statement) => {
    expect((await answer(`parameters ${name}`)).sort()).toEqual([...statement.parameters].sort());
  });
});

describe('the Cypher lint itself', () => {
  it('accepts a well-formed statement (the control for the cases below)', async () => {
    expect(
      await diagnostics('UNWIND $ids AS id MATCH (n:Item {id: id}) RETURN toLower(n.id)', ['ids']),
    ).toEqual([]);
  });

  it('flags a function Neo4j does not have', async () => {
    expect(await diagnostics('UNWIND $ids AS id RETURN toLowr(id)', ['ids'])).toEqual([
      expect.stringContaining('Function toLowr is not present in the database'),
    ]);
  });

  it('flags a procedure Neo4j does not have', async () => {
    const text = "CALL db.index.fulltext.queryNode('item_search', $query) YIELD node RETURN node";
    expect(await diagnostics(text, ['query'])).toEqual([
      expect.stringContaining('Procedure db.index.fulltext.queryNode is not present in the database'),
    ]);
  });

  it('flags an undeclared parameter', async () => {
    expect(await diagnostics('UNWIND $idz AS id MATCH (n:Item {id: id}) RETURN n', ['ids'])).toEqual([
      'Parameter $idz is not defined.',
    ]);
  });

  it('flags a syntax error', async () => {
    expect(await diagnostics('UNWIND $ids AS id MATCH (n:Item {id: id} RETURN n', ['ids'])).toContainEqual(
      "Invalid input 'RETURN': expected ')' or 'WHERE'",
    );
  });

  it('flags a semantic error: a variable that is not bound', async () => {
    expect(await diagnostics('UNWIND $ids AS id MATCH (n:Item {id: ident}) RETURN n', ['ids'])).toEqual([
      expect.stringContaining('Variable `ident` not defined'),
    ]);
  });

  it('flags a misspelt label or relationship type', async () => {
    const messages = await diagnostics('MATCH (n:Itme)-[:chldOf]->(m:Item) RETURN n, m', []);
    expect(messages).toEqual([
      expect.stringContaining('Label Itme is not present in the database'),
      expect.stringContaining('Relationship type chldOf is not present in the database'),
    ]);
  });
});

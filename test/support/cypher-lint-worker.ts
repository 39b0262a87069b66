import { parentPort } from 'node:worker_threads';
import {
  CypherVersion,
  DbSchema,
  lintCypherQuery,
  parseParameters,
  testData,
} from '@neo4j-cypher/language-support';
import {
  DEPENDENT_LABEL,
  ITEM_LABEL,
  PENDING_LABEL,
  RECORD_LABEL,
  WRITE_LOCK_LABEL,
} from '../../src/graph/neo4j/graph-model';
import {
  DEPENDENT_RELATIONS,
  DEPENDENT_TYPES,
  ITEM_EDGE_TYPES,
  ITEM_TYPES,
} from '../../src/items/item-types';

/**
 * The Cypher lint of `test/graph/cypher-lint.spec.ts`, in a worker thread started with
 * `startModuleWorker`: Neo4j's parser and semantic analysis, compiled to JavaScript, run markedly
 * slower inside Jest's module sandbox than in a plain Node context, and two threads use two cores.
 * It answers each `LintBatch` it is sent with a `LintAnswers` of the same id.
 */

/** A statement's diagnostics under `version`, or (`parameters`) the `$parameters` it uses. */
export type LintRequest =
  | { kind: 'diagnostics'; text: string; parameters: readonly string[]; version: CypherVersion }
  | { kind: 'parameters'; text: string };

export interface LintBatch {
  id: number;
  requests: LintRequest[];
}

/** One list of messages or parameter names for each request, in order. */
export interface LintAnswers {
  id: number;
  answers: string[][];
}

/**
 * The function and procedure lists are those of a Neo4j 5 server as `@neo4j-cypher/language-support`
 * ships them (`testData.mockSchema`), so a function Neo4j lacks is an error too. Labels and
 * relationship types are the adapter's own, so a misspelt one is flagged.
 */
function schema(version: CypherVersion, parameters: readonly string[]): DbSchema {
  const { functions, procedures } = testData.mockSchema;
  return {
    defaultLanguage: version,
    functions: { [version]: functions?.[version] },
    procedures: { [version]: procedures?.[version] },
    labels: [
      ITEM_LABEL,
      DEPENDENT_LABEL,
      RECORD_LABEL,
      WRITE_LOCK_LABEL,
      PENDING_LABEL,
      ...ITEM_TYPES,
      ...DEPENDENT_TYPES,
    ],
    relationshipTypes: [...ITEM_EDGE_TYPES, ...Object.keys(DEPENDENT_RELATIONS)],
    parameters: Object.fromEntries(parameters.map((name) => [name, null])),
  };
}

function answer(request: LintRequest): string[] {
  if (request.kind === 'parameters') return parseParameters(request.text, false);
  return lintCypherQuery(request.text, schema(request.version, request.parameters)).diagnostics.map(
    ({ message }) => (typeof message === 'string' ? message : message.value),
  );
}

parentPort!.on('message', ({ id, requests }: LintBatch) => {
  const answers: LintAnswers = { id, answers: requests.map(answer) };
  parentPort!.postMessage(answers);
});

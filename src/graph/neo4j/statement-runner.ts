import { QueryResult, Record as ResultRecord } from 'neo4j-driver';
import { ALL_STATEMENTS, CypherStatement } from './cypher';

/** Runs one statement in the open transaction and gives its rows. */
export type StatementRunner = <P extends string>(
  statement: CypherStatement<P>,
  parameters: Record<P, unknown>,
) => Promise<ResultRecord[]>;

/** Anything that runs Cypher: an explicit or a managed transaction, or a session. */
export interface CypherRunner {
  run(
    text: string,
    parameters: Record<string, unknown>,
  ): PromiseLike<Pick<QueryResult, 'records'> & Partial<Pick<QueryResult, 'summary'>>>;
}

/** Told of each statement that changed the graph, with Neo4j's count of each kind of change. */
export type UpdateObserver = (statement: string, updates: Record<string, number>) => void;

/**
 * Sends exactly a statement's declared parameters. Refuses a statement with a parameter missing,
 * and one not defined in `cypher.ts`, which the lint test would not have seen.
 */
export function statementRunner(runner: CypherRunner, observer?: UpdateObserver): StatementRunner {
  return async (statement, parameters) => {
    if (!ALL_STATEMENTS.includes(statement)) throw new Error(`${statement.name} is not in cypher.ts`);
    const given = parameters as Record<string, unknown>;
    const sent: Record<string, unknown> = {};
    for (const name of statement.parameters) {
      if (given[name] === undefined) throw new Error(`${statement.name}: parameter $${name} not given`);
      sent[name] = given[name];
    }
    const result = await runner.run(statement.text, sent);
    const counters = result.summary?.counters;
    if (observer && counters?.containsUpdates()) observer(statement.name, counters.updates());
    return result.records;
  };
}

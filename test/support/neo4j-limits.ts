import request from 'supertest';
import { Neo4jConnectOptions } from '../../src/graph/neo4j/neo4j-graph-store';
import { ImportTestApp } from './import-client';
import { eadOf } from './job-events';
import { neo4jTestDatabase } from './test-store';

/** A limit on one Neo4j write transaction's memory, as a refused import names it. */
export interface TransactionLimit {
  setting: string;
  mib: number;
  /** What the refusal's message says to do. */
  advice: RegExp;
}

/**
 * Imports a finding aid of `units` units into `r1` that `limit` refuses, and checks what follows:
 * 413 naming the limit and its setting, no unit written, a failed import log.
 */
export async function expectRefusedImport(
  t: ImportTestApp,
  units: number,
  limit: TransactionLimit,
): Promise<void> {
  const answer = await t
    .post('ead', { scope: 'r1', commit: 'true', tag: 'big.xml' })
    .set('Content-Type', 'application/xml')
    .send(eadOf('big', units));
  expect(answer.status).toBe(413);
  expect(answer.body.details).toMatchObject({ setting: limit.setting, limit: `${limit.mib}.0 MiB` });
  expect(answer.body.details.message).toMatch(limit.advice);
  expect((await t.items(['r1-big', 'r1-big-0', `r1-big-${units - 1}`])).size).toBe(0);
  const logs = await request(t.server)
    .get('/import/logs')
    .query({ outcome: 'failed' })
    .set('Authorization', `Bearer ${await t.token('ops')}`)
    .expect(200);
  expect(logs.body.items[0]).toMatchObject({ outcome: 'failed', error: { status: 413 } });
}

/** `describe(title, tests)` on the Neo4j test database; without one, skipped, saying why. */
export function describeOnNeo4j(title: string, tests: (database: Neo4jConnectOptions) => void): void {
  const database = neo4jTestDatabase();
  if (database) {
    describe(title, () => tests(database));
    return;
  }
  const reason =
    'NEO4J_TEST_URL is not set: npm run test:neo4j (part of npm test) runs it beside a Neo4j server it starts';
  describe(title, () => {
    console.warn(`Skipped "${title}": ${reason}.`);
    it.skip(`skipped: ${reason}`, () => undefined);
  });
}

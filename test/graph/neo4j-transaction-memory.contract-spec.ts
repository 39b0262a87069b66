import { createImportTestApp, ImportTestApp } from '../support/import-client';
import { eadOf } from '../support/job-events';
import { describeOnNeo4j, expectRefusedImport } from '../support/neo4j-limits';

/**
 * The service's own limit on one Neo4j write transaction (`NEO4J_TRANSACTION_HEAP_MAX_MB`,
 * `transaction-memory.ts`), set small here so that a few thousand units pass it: the import is
 * refused 413 naming the limit and the setting, writes nothing and leaves a failed log, and the
 * server goes on serving.
 */
const LIMIT_MIB = 2;

describeOnNeo4j('an import past the service limit on a Neo4j transaction', () => {
  let t: ImportTestApp;

  beforeAll(async () => {
    t = await createImportTestApp({ NEO4J_TRANSACTION_HEAP_MAX_MB: String(LIMIT_MIB) });
  }, 120_000);

  afterAll(() => t?.close());

  it('is refused 413, naming the limit and the setting, and writes nothing', async () => {
    await expectRefusedImport(t, 5000, {
      setting: 'NEO4J_TRANSACTION_HEAP_MAX_MB',
      mib: LIMIT_MIB,
      advice: /Raise NEO4J_TRANSACTION_HEAP_MAX_MB/,
    });
  }, 180_000);

  it('lets an import within the limit commit', async () => {
    const answer = await t
      .post('ead', { scope: 'r1', commit: 'true', tag: 'small.xml' })
      .set('Content-Type', 'application/xml')
      .send(eadOf('small', 5));
    expect(answer.status).toBe(201);
    expect((await t.items(['r1-small', 'r1-small-4'])).size).toBe(2);
  }, 60_000);
});

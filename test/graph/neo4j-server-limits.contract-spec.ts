import path from 'node:path';
import request from 'supertest';
import { ServerSettings, startServer, stopServer } from '../../scripts/neo4j-server';
import { CLOSE_MARGIN_MS } from '../../src/shutdown/graceful-shutdown';
import { createImportTestApp, ImportTestApp } from '../support/import-client';
import { eadOf } from '../support/job-events';
import { getOnce, ServiceProcess, startServiceFromSource } from '../support/service-process';
import { describeOnNeo4j, expectRefusedImport } from '../support/neo4j-limits';

/**
 * A Neo4j server of this file's own (`NEO4J_TEST_LIMITS_BOLT_PORT`, default 7712), apart from the
 * test run's, with a small limit on one transaction's memory, and stopped and started under a
 * running service: what the service answers when the server refuses an import memory, and when
 * the server goes away and comes back.
 */
const PORT = Number(process.env.NEO4J_TEST_LIMITS_BOLT_PORT || 7712);
const TRANSACTION_MAX_MIB = 4;
const SHUTDOWN_GRACE_MS = 2_000;

async function until(what: string, done: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describeOnNeo4j('a Neo4j server with limits, going away and coming back', (runOn) => {
  const settings: ServerSettings = {
    dataDir: path.resolve(`data/neo4j-limits-${PORT}`),
    port: PORT,
    password: runOn.password || 'limits-test-password',
    heap: '1g',
    pageCacheMiB: 64,
    transactionMaxMiB: TRANSACTION_MAX_MIB,
  };
  const savedUrl = process.env.NEO4J_TEST_URL;
  const savedPassword = process.env.NEO4J_TEST_PASSWORD;
  let t: ImportTestApp;
  let url: string;

  beforeAll(async () => {
    ({ url } = await startServer(settings));
    // The test apps of this file open this server's database.
    process.env.NEO4J_TEST_URL = url;
    process.env.NEO4J_TEST_PASSWORD = settings.password;
    t = await createImportTestApp();
  }, 300_000);

  afterAll(async () => {
    await t?.close();
    await stopServer(settings.dataDir);
    process.env.NEO4J_TEST_URL = savedUrl;
    process.env.NEO4J_TEST_PASSWORD = savedPassword;
  }, 180_000);

  it('answers an import larger than db.memory.transaction.max 413, naming the limit, writing nothing', async () => {
    await expectRefusedImport(t, 3000, {
      setting: 'db.memory.transaction.max',
      mib: TRANSACTION_MAX_MIB,
      advice: /Raise db\.memory\.transaction\.max.*NEO4J_TRANSACTION_MAX/,
    });
  }, 180_000);

  it('is not ready and refuses imports 503 while Neo4j is down, reconnects, and stops in time', async () => {
    const service: ServiceProcess = await startServiceFromSource({
      GRAPH_URL: url,
      NEO4J_USER: 'neo4j',
      NEO4J_PASSWORD: settings.password,
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
      LOG_LEVEL: 'warn',
    });
    const importSmall = (fonds: string) =>
      request(`http://127.0.0.1:${service.port}`)
        .post('/import/ead')
        .query({ scope: 'r1', commit: 'true', tag: `${fonds}.xml` })
        .set('Authorization', `Bearer ${t.importToken}`)
        .set('X-User', t.userId)
        .set('Content-Type', 'application/xml')
        .send(eadOf(fonds, 3));
    try {
      await until('readiness', async () => (await getOnce(service.port, '/health/ready')).status === 200);

      await stopServer(settings.dataDir);
      const ready = await getOnce(service.port, '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.text).toContain(`Neo4j at ${url} does not answer`);
      const refused = await importSmall('down');
      expect(refused.status).toBe(503);
      expect(JSON.stringify(refused.body.details)).toMatch(/Neo4j store does not answer/);

      await startServer(settings);
      await until(
        'readiness again',
        async () => (await getOnce(service.port, '/health/ready')).status === 200,
      );
      expect((await importSmall('back')).status).toBe(201);
      expect((await t.items(['r1-down'])).size).toBe(0);
      expect((await t.items(['r1-back'])).size).toBe(1);

      await stopServer(settings.dataDir);
      const stopping = Date.now();
      await service.stop();
      expect(Date.now() - stopping).toBeLessThan(SHUTDOWN_GRACE_MS + CLOSE_MARGIN_MS + 3_000);
    } finally {
      if (service.process.exitCode === null) service.process.kill('SIGKILL');
      await startServer(settings);
    }
  }, 300_000);
});

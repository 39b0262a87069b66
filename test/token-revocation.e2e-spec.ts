import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import request from 'supertest';
import { TokensService } from '../src/auth/tokens.service';
import { sqliteFileOf } from '../src/config/app-config';
import { RecordTokenStore } from '../src/graph/records/record-token-store';
import { SqliteTokenStore } from '../src/graph/sqlite/sqlite-token-store';
import { TokenStore } from '../src/graph/token-store';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { jobEvents } from './support/job-events';
import { until } from './support/polling';
import { holdNextImport } from './support/job-holds';
import { FROM_SOURCE } from './support/service-process';

const run = promisify(execFile);

/**
 * The token store as another process opens it: on SQLite a connection of its own to the token
 * file; on Neo4j the records, written without the app's `TokensService` (which tells its own
 * process at once) through the app's driver.
 */
async function otherTokenStore(app: ImportTestApp): Promise<TokenStore> {
  const file = sqliteFileOf(app.graphEnv.GRAPH_URL);
  return file === undefined ? new RecordTokenStore(app.store) : SqliteTokenStore.open(file, async () => []);
}

/**
 * Revocation acts at once (on either store): it never waits for an import's write transaction, an
 * import whose token is revoked before it commits is rolled back and logged so, and open event
 * streams of the token end.
 */
describe('token revocation', () => {
  let app: ImportTestApp;
  let tokens: TokensService;
  let opsToken: string;
  let port: number;

  beforeAll(async () => {
    app = await createImportTestApp();
    tokens = app.app.get(TokensService);
    opsToken = await app.token('ops');
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  const body = (prefix: string, lines: number) =>
    Array.from({ length: lines }, (_, index) => `${prefix}${index} Unit`).join('\n');

  /** An import token of its own, and an asynchronous import with it held once it writes. */
  async function heldImport(prefix: string) {
    const { id, token } = await tokens.create({ role: 'import' });
    const hold = holdNextImport(app.app);
    const accepted = await request(app.server)
      .post('/import/test-lines')
      .query({ scope: 'r1', commit: 'true' })
      .set('Authorization', `Bearer ${token}`)
      .set('X-User', app.userId)
      .set('Prefer', 'respond-async')
      .set('Content-Type', 'application/xml')
      .send(body(prefix, 300));
    expect(accepted.status).toBe(202);
    expect(await hold.reached).toBe(accepted.body.id);
    return { tokenId: id, token, hold, jobId: accepted.body.id as string };
  }

  const job = async (id: string) =>
    (await request(app.server).get(`/import/jobs/${id}`).set('Authorization', `Bearer ${opsToken}`)).body;

  async function expectRolledBackAsRevoked(jobId: string, tokenId: string, prefix: string) {
    const ended = await until(
      'the job ended',
      () => job(jobId),
      (document) => document.finished !== null,
    );
    expect(ended).toMatchObject({ state: 'failed', error: { status: 401 } });
    expect(ended.error.details).toContain(`token (id ${tokenId}) was revoked`);
    const log = await request(app.server)
      .get(`/import/logs/${ended.event}`)
      .set('Authorization', `Bearer ${opsToken}`);
    expect(log.body).toMatchObject({ outcome: 'failed', tokenId, error: { status: 401 } });
    expect((await app.items([`r1-${prefix}0`, `r1-${prefix}299`])).size).toBe(0);
  }

  it('revokes within a second while an import holds the writer, and rolls that import back', async () => {
    const { tokenId, hold, jobId } = await heldImport('held');

    const clock = Date.now();
    await tokens.revoke(tokenId);
    expect(Date.now() - clock).toBeLessThan(1000);
    expect(await job(jobId)).toMatchObject({ state: 'running' });

    hold.release();
    await expectRolledBackAsRevoked(jobId, tokenId, 'held');
  });

  it("takes the command line's `token revoke` while an import holds the writer", async () => {
    const { tokenId, token, hold, jobId } = await heldImport('cli');

    const env = { ...process.env, ...app.graphEnv };
    const { stdout } = await run(
      process.execPath,
      [...FROM_SOURCE, 'src/cli.ts', 'token', 'revoke', tokenId],
      { env },
    );
    expect(stdout).toContain(tokenId);
    // Done in another process while the import still holds the writer, and seen here at once.
    expect(await job(jobId)).toMatchObject({ state: 'running' });
    const refused = await request(app.server).get('/import/jobs').set('Authorization', `Bearer ${token}`);
    expect(refused.status).toBe(401);

    hold.release();
    await expectRolledBackAsRevoked(jobId, tokenId, 'cli');
  }, 60_000);

  it('ends an open event stream of the token when another process revokes it', async () => {
    const { tokenId, token, hold, jobId } = await heldImport('sse');
    const events: string[] = [];
    const ended = new Promise<number>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: `/import/jobs/${jobId}/events`,
            headers: { Authorization: `Bearer ${token}` },
          },
          (res) => {
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => events.push(chunk));
            res.on('end', () => resolve(Date.now()));
          },
        )
        .on('error', reject);
    });
    await until(
      'the first progress event',
      () => events.join(''),
      (text) => text.includes('event: progress'),
    );

    // As the command line or another HTTP worker would: through a connection of its own.
    const other = await otherTokenStore(app);
    const revokedAt = Date.now();
    try {
      expect(await other.revoke(tokenId)).toBe(true);
    } finally {
      await other.close();
    }

    expect((await ended) - revokedAt).toBeLessThan(1000);
    expect(events.join('')).not.toContain('event: outcome');
    hold.release();
    await expectRolledBackAsRevoked(jobId, tokenId, 'sse');
    // A stream of a token still valid is unaffected: the outcome ends it.
    const { events: opsEvents } = await jobEvents(app.server, jobId, opsToken);
    expect(opsEvents.map((event) => event.event)).toEqual(['outcome']);
  });

  it('rolls back an import whose token is revoked while its body is still arriving', async () => {
    const { id: tokenId, token } = await tokens.create({ role: 'import' });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const sent = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/import/test-lines?scope=r1&commit=true',
          headers: {
            Authorization: `Bearer ${token}`,
            'X-User': app.userId,
            'Content-Type': 'application/xml',
            'Transfer-Encoding': 'chunked',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      sent.on('error', reject);
      sent.write(`${body('upload', 150)}\n`);
      void until(
        'the job receiving its body',
        async () =>
          (await request(app.server).get('/import/jobs').set('Authorization', `Bearer ${token}`)).body,
        (list) => list.items?.some((document: { phase: string }) => document.phase === 'receiving'),
      )
        .then(() => tokens.revoke(tokenId))
        .then(() => sent.end(body('upload', 300).split('\n').slice(150).join('\n')), reject);
    });

    const { status, text } = await answer;
    expect(status).toBe(401);
    expect(JSON.parse(text).details).toContain(`token (id ${tokenId}) was revoked`);
    const [log] = (
      await request(app.server)
        .get('/import/logs')
        .query({ outcome: 'failed', user: app.userId })
        .set('Authorization', `Bearer ${opsToken}`)
    ).body.items;
    expect(log).toMatchObject({ tokenId, error: { status: 401 } });
    expect((await app.items(['r1-upload0', 'r1-upload299'])).size).toBe(0);
  });
});

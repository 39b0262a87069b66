import request from 'supertest';
import { TokensService } from '../src/auth/tokens.service';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/**
 * Who an import is recorded as: the import token's user, whatever X-User says; X-User only for a
 * token issued to no user. Every stored log and job names the token that acted.
 */
describe('the acting user of an import', () => {
  let app: ImportTestApp;
  let opsToken: string;
  let alice: string;
  let bob: string;
  let bobToken: string;
  let bobTokenId: string;

  beforeAll(async () => {
    app = await createImportTestApp();
    opsToken = await app.token('ops');
    alice = await app.user();
    bob = await app.user();
    const created = await app.app.get(TokensService).create({ role: 'import', user: bob });
    bobToken = created.token;
    bobTokenId = created.id;
  });
  afterAll(() => app.close());

  const importAs = (token: string, user: string | undefined, body: string) => {
    const post = request(app.server)
      .post('/import/test-lines')
      .query({ scope: 'r1', commit: 'true' })
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/xml');
    return (user === undefined ? post : post.set('X-User', user)).send(body);
  };
  const storedLog = (id: string) =>
    request(app.server).get(`/import/logs/${id}`).set('Authorization', `Bearer ${opsToken}`);
  const jobs = (token: string) =>
    request(app.server).get('/import/jobs').set('Authorization', `Bearer ${token}`);

  it("refuses X-User naming another user than the token's with 403 naming both", async () => {
    const response = await importAs(bobToken, alice, 'forged1 X');

    expect(response.status).toBe(403);
    expect(response.body.details).toContain(`"${alice}"`);
    expect(response.body.details).toContain(`"${bob}"`);
    expect((await app.items(['r1-forged1'])).size).toBe(0);
  });

  it("takes the token's user when X-User is absent, and records the token in the log and job", async () => {
    const response = await importAs(bobToken, undefined, 'bob1 X');

    expect(response.status).toBe(201);
    const log = (await storedLog(response.body.event)).body;
    expect(log).toMatchObject({ user: bob, tokenId: bobTokenId });
    const [job] = (await jobs(bobToken)).body.items;
    expect(job).toMatchObject({ user: bob, tokenId: bobTokenId, event: response.body.event });
  });

  it("accepts X-User naming the token's own user", async () => {
    const response = await importAs(bobToken, bob, 'bob2 X');

    expect(response.status).toBe(201);
    expect((await storedLog(response.body.event)).body).toMatchObject({ user: bob, tokenId: bobTokenId });
  });

  it('lets a token of no user name a known user, and records the token as the one that acted', async () => {
    const { id, token } = await app.app.get(TokensService).create({ role: 'import' });

    const response = await importAs(token, alice, 'shared1 X');

    expect(response.status).toBe(201);
    expect((await storedLog(response.body.event)).body).toMatchObject({ user: alice, tokenId: id });
    // Alice's own token sees the job as hers; the log says which token acted for her.
    const aliceToken = await app.token('import', alice);
    const [job] = (await jobs(aliceToken)).body.items;
    expect(job).toMatchObject({ user: alice, tokenId: id });
  });

  it('refuses a token of no user without X-User, or naming an unknown user, with 400', async () => {
    const token = await app.token('import');

    const missing = await importAs(token, undefined, 'x1 X');
    expect(missing.status).toBe(400);
    expect(missing.body.details).toMatch(/X-User.*issued to no user/);
    const unknown = await importAs(token, 'nobody_here', 'x2 X');
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toBe('Unknown user: nobody_here');
  });

  it('records the token of a committed import that failed', async () => {
    const response = await request(app.server)
      .post('/import/test-lines')
      .query({ scope: 'r1', commit: 'true' })
      .set('Authorization', `Bearer ${bobToken}`)
      .set('Content-Type', 'application/xml')
      .send('!fail here');
    expect(response.status).toBe(400);

    const logs = await request(app.server)
      .get('/import/logs')
      .query({ user: bob, outcome: 'failed' })
      .set('Authorization', `Bearer ${opsToken}`);
    expect(logs.body.items[0]).toMatchObject({ user: bob, tokenId: bobTokenId, outcome: 'failed' });
  });
});

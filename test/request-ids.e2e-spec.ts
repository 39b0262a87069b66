import request from 'supertest';
import { ehriFixture } from './support/ehri-fixtures';
import { useOpsTestSuite } from './support/import-client';

const JSONAPI = 'application/vnd.api+json';
const EAG = ehriFixture('eag.xml');

describe('Request ids: in every error body, in stored import logs, kept from the client', () => {
  const suite = useOpsTestSuite();

  const storedLog = async (id: string) =>
    (
      await request(suite.t.server)
        .get(`/import/logs/${id}`)
        .set('Authorization', `Bearer ${suite.opsToken}`)
        .expect(200)
    ).body as { requestId?: string; outcome: string };

  it('keeps a well-formed X-Request-Id from the client, answers it, and puts it in JSON:API errors', async () => {
    const response = await request(suite.t.server)
      .get('/api/v1/no-such-item')
      .set('Authorization', `Bearer ${await suite.t.token('portal')}`)
      .set('Accept', JSONAPI)
      .set('X-Request-Id', 'client-42.a:b_c')
      .expect(404);
    expect(response.headers['x-request-id']).toBe('client-42.a:b_c');
    expect(JSON.parse(response.text).errors[0].meta).toEqual({ requestId: 'client-42.a:b_c' });
  });

  it('replaces an X-Request-Id that is malformed or too long with one of its own', async () => {
    for (const sent of ['has spaces', 'x'.repeat(129), 'quote"d']) {
      const response = await request(suite.t.server)
        .get('/api/v1/search')
        .set('X-Request-Id', sent)
        .expect(401);
      const id = response.headers['x-request-id'];
      expect(id).not.toBe(sent);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(response.text).errors[0].meta.requestId).toBe(id);
    }
  });

  it('exposes X-Request-Id to browser scripts on the portal (CORS)', async () => {
    const response = await request(suite.t.server).get('/api/v1').set('Origin', 'https://portal.example');
    expect(response.headers['access-control-expose-headers']).toContain('X-Request-Id');
  });

  it('puts it in import errors, and in the stored log of a committed import that failed', async () => {
    const response = await suite.t
      .post('eag', { scope: 'nl', commit: 'true' })
      .set('X-Request-Id', 'failed-import-1')
      .type('text/xml')
      .send('<eag><broken')
      .expect(400);
    expect(response.body).toMatchObject({ status: 400, error: 'Bad Request', requestId: 'failed-import-1' });

    const logs = await request(suite.t.server)
      .get('/import/logs')
      .query({ outcome: 'failed', endpoint: 'eag' })
      .set('Authorization', `Bearer ${suite.opsToken}`)
      .expect(200);
    const stored = (logs.body.items as { id: string; requestId?: string }[]).find(
      (log) => log.requestId === 'failed-import-1',
    );
    expect(stored).toBeDefined();
    expect(await storedLog(stored!.id)).toMatchObject({ outcome: 'failed', requestId: 'failed-import-1' });
  });

  it('records the request that started a successful import in its stored log', async () => {
    const response = await suite.t
      .post('eag', { scope: 'nl', commit: 'true' })
      .set('X-Request-Id', 'eag-import-1')
      .type('text/xml')
      .send(EAG)
      .expect(201);
    expect(await storedLog(response.body.event as string)).toMatchObject({
      outcome: 'succeeded',
      requestId: 'eag-import-1',
    });
  });

  it('puts it in the errors of other paths too (Nest format)', async () => {
    const response = await request(suite.t.server)
      .get('/metrics')
      .set('X-Request-Id', 'metrics-401')
      .expect(401);
    expect(response.body).toMatchObject({ statusCode: 401, requestId: 'metrics-401' });
    const missing = await request(suite.t.server)
      .get('/no-such-route')
      .set('X-Request-Id', 'nowhere')
      .expect(404);
    expect(missing.body).toMatchObject({ statusCode: 404, requestId: 'nowhere' });
  });
});

import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { TestApp, createTestApp } from './support/test-app';

const JSONAPI = 'application/vnd.api+json';
const EAG = '<eag><broken';

/** The headers every counted answer carries (IETF draft names), and their values as numbers. */
function limitHeaders(response: request.Response): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(response.headers['ratelimit-limit']),
    remaining: Number(response.headers['ratelimit-remaining']),
    reset: Number(response.headers['ratelimit-reset']),
  };
}

describe('Rate limits: the portal, per token (PORTAL_RATE_LIMIT)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ env: { PORTAL_RATE_LIMIT: '3' } });
  });
  afterAll(() => testApp.close());

  const search = (token: string) =>
    request(testApp.server)
      .get('/api/v1/search')
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', JSONAPI);

  it('answers 429 past the limit, as a JSON:API error with Retry-After and RateLimit-* headers', async () => {
    const token = await testApp.token('portal');
    for (let sent = 1; sent <= 3; sent++) {
      const response = await search(token).expect(200);
      expect(limitHeaders(response)).toMatchObject({ limit: 3, remaining: 3 - sent });
    }

    const refused = await search(token).expect(429);

    expect(refused.headers['content-type']).toBe(JSONAPI);
    expect(limitHeaders(refused)).toMatchObject({ limit: 3, remaining: 0 });
    expect(limitHeaders(refused).reset).toBeGreaterThan(0);
    expect(limitHeaders(refused).reset).toBeLessThanOrEqual(60);
    expect(Number(refused.headers['retry-after'])).toBe(limitHeaders(refused).reset);
    expect(JSON.parse(refused.text)).toEqual({
      errors: [
        {
          status: '429',
          title: 'Too Many Requests',
          detail: expect.stringMatching(
            /^Too many requests: at most 3 a minute; retry in \d+ (seconds?|minute)$/,
          ),
          meta: { requestId: refused.headers['x-request-id'] },
        },
      ],
    });
    // Browsers' scripts may read when to retry.
    expect(refused.headers['access-control-expose-headers']).toContain('Retry-After');
  });

  it('counts the exports as portal reads, whichever format', async () => {
    const paths = [
      '/export/ead/nothing',
      '/export/repositories/nothing/eag',
      '/export/agents/nothing/eac',
      '/export/vocabularies/nothing/skos',
      '/export/nothing/dc',
    ];
    for (const path of paths) {
      const token = await testApp.token('portal');
      const answer = await request(testApp.server).get(path).set('Authorization', `Bearer ${token}`);
      expect([path, answer.status, limitHeaders(answer)]).toEqual([
        path,
        404,
        expect.objectContaining({ limit: 3, remaining: 2 }),
      ]);
    }
  });

  it('counts each token on its own', async () => {
    const busy = await testApp.token('portal');
    for (let sent = 0; sent < 3; sent++) await search(busy).expect(200);
    await search(busy).expect(429);
    await search(await testApp.token('portal')).expect(200);
  });

  it('does not count requests refused for want of a valid token', async () => {
    const token = await testApp.token('portal');
    for (let sent = 0; sent < 5; sent++) await search('not-a-token').expect(401);
    await search(token).expect(200);
  });
});

describe('Rate limits: none on imports, which the queue bounds instead', () => {
  let t: ImportTestApp;

  beforeAll(async () => {
    t = await createImportTestApp({ PORTAL_RATE_LIMIT: '0' });
  });
  afterAll(() => t.close());

  it('counts no import by the minute: no RateLimit-* headers, refused or not', async () => {
    const token = await t.token('import', await t.user());
    const response = await request(t.server)
      .post('/import/eag')
      .query({ scope: 'nl' })
      .set('Authorization', `Bearer ${token}`)
      .type('text/xml')
      .send(EAG);
    expect(response.status).toBe(400);
    expect(response.headers['ratelimit-limit']).toBeUndefined();
  });

  it('PORTAL_RATE_LIMIT=0 turns the portal limit off', async () => {
    const token = await t.token('portal');
    for (let sent = 0; sent < 5; sent++) {
      const response = await request(t.server)
        .get('/api/v1/search')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});

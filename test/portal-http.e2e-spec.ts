import request from 'supertest';
import { preflight } from './support/preflight';
import { checked, JSONAPI, NIOD, portalRequests, startPortalApp } from './support/portal-app';
import { unitWrite } from './support/portal-fixtures';
import { TestApp } from './support/test-app';

/**
 * The portal's parameters, authentication, media types, CORS and OpenAPI description, on the
 * fixtures of `support/portal-app.ts`.
 */
describe('Portal API v1 (through the real app on SQLite)', () => {
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    ({ testApp, token } = await startPortalApp());
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const { get, ok } = portalRequests(() => ({ testApp, token }));

  describe('parameters', () => {
    it.each([
      ['/api/v1/search?type=Person', 'type'],
      ['/api/v1/search?include=holder', 'include'],
      ['/api/v1/search?sort=shoe-size', 'sort'],
      ['/api/v1/nl/related?sort=__proto__', 'sort'],
      ['/api/v1/search?facet=colour', 'facet'],
      ['/api/v1/search?q=%22open+quote', 'q'],
      ['/api/v1/nl/search?q=a+AND', 'q'],
      ['/api/v1/nl?fields[Person]=name', 'fields[Person]'],
      ['/api/v1/nl?include=country', 'include'],
    ])('%s → 400 naming "%s"', async (path, parameter) => {
      const response = await get(path);
      expect(response.status).toBe(400);
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors[0]).toMatchObject({
        status: '400',
        title: 'Bad Request',
        source: { parameter },
      });
      expect(typeof response.body.errors[0].detail).toBe('string');
    });
  });

  describe('authentication', () => {
    it.each([
      ['no Authorization header', undefined],
      ['an unknown token', `Bearer ${'x'.repeat(43)}`],
      ['another scheme', 'Basic cG9ydGFsOnBvcnRhbA=='],
    ])('answers 401 with WWW-Authenticate: Bearer for %s', async (_case, authorization) => {
      const req = request(testApp.server).get('/api/v1/search');
      const response = checked(
        await (authorization === undefined ? req : req.set('Authorization', authorization)),
      );
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.body.errors[0]).toMatchObject({ status: '401', title: 'Unauthorized' });
    });

    it('answers 403 to a token of another role', async () => {
      const importToken = await testApp.token('import');
      const response = checked(
        await request(testApp.server).get('/api/v1/search').set('Authorization', `Bearer ${importToken}`),
      );
      expect(response.status).toBe(403);
    });
  });

  describe('media types', () => {
    it.each([
      [JSONAPI],
      ['*/*'],
      [`${JSONAPI}; ext="https://example.org/ext", ${JSONAPI}`],
      [`text/html, ${JSONAPI};q=0.8`],
    ])('serves Accept: %s', async (accept) => {
      expect((await get('/api/v1/search?type=Repository', { Accept: accept })).status).toBe(200);
    });

    it.each([[`${JSONAPI}; charset=utf-8`], [`${JSONAPI}; ext=a, ${JSONAPI}; profile=b`]])(
      'answers 406 to Accept: %s',
      async (accept) => {
        const response = await get('/api/v1/search', { Accept: accept });
        expect(response.status).toBe(406);
        expect(response.body.errors[0]).toMatchObject({ status: '406', title: 'Not Acceptable' });
      },
    );

    it('negotiates the media type before it checks the token', async () => {
      const response = checked(
        await request(testApp.server).get('/api/v1/search').set('Accept', `${JSONAPI}; charset=utf-8`),
      );
      expect(response.status).toBe(406);
    });

    it('answers 415 to a JSON:API Content-Type with parameters', async () => {
      const response = await get('/api/v1/search', { 'Content-Type': `${JSONAPI}; charset=utf-8` });
      expect(response.status).toBe(415);
      expect(response.body.errors[0]).toMatchObject({ status: '415', title: 'Unsupported Media Type' });
    });

    it('answers unknown routes and other methods with JSON:API errors', async () => {
      expect((await get('/api/v1/nl/search/more')).status).toBe(404);
      const post = checked(
        await request(testApp.server).post('/api/v1/search').set('Authorization', `Bearer ${token}`),
      );
      expect(post.status).toBe(405);
      expect(post.headers.allow).toContain('GET');
      // Routes no controller of the API has, and a request Fastify refuses before any handler.
      expect((await get('/api/v2/search')).status).toBe(404);
      const unparsable = checked(
        await request(testApp.server)
          .post('/api/v1/search')
          .set('Authorization', `Bearer ${token}`)
          .set('Content-Type', ';;;')
          .send('x'),
      );
      expect(unparsable.status).toBe(415);
    });

    it('answers writes to the index itself with 405 in JSON:API', async () => {
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        const response = checked(
          await request(testApp.server)[method]('/api/v1').set('Authorization', `Bearer ${token}`),
        );
        expect(response.status).toBe(405);
        expect(response.headers.allow).toContain('GET');
      }
    });

    it('answers a path the router cannot decode with a JSON:API 400, as any other error', async () => {
      // The router refuses a malformed percent-escape before any route, middleware or filter runs.
      for (const path of ['/api/v1/%ZZ', '/api/v1/%E0%A4%A/search?q=a', '/api/%ZZ']) {
        const response = checked(
          await request(testApp.server).get(path).set('Origin', 'https://viewer.example'),
        );
        expect(response.status).toBe(400);
        expect(response.body.errors[0]).toMatchObject({ status: '400', title: 'Bad Request' });
        expect(response.body.errors[0].detail).toMatch(/not a valid URL/);
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expect(response.headers['x-request-id']).toEqual(expect.any(String));
      }
    });

    it("routes ids of any length, such as a deep unit's", async () => {
      const deep = unitWrite([...NIOD, 'l'.repeat(60), 'e'.repeat(60), 'vel'.repeat(20)], {
        descriptions: [{ languageCode: 'eng', name: 'Deep down' }],
      });
      const { id } = deep.bundle;
      // Longer than the router's default limit for a path parameter (100 characters).
      expect(id.length).toBeGreaterThan(100);
      await testApp.store.write((tx) => tx.putItems([deep]));
      try {
        expect((await ok(`/api/v1/${id}`)).data.attributes.descriptions[0].name).toBe('Deep down');
      } finally {
        await testApp.store.write((tx) => tx.deleteItems([id]));
      }
    });
  });

  describe('CORS', () => {
    it('allows any origin on the API', async () => {
      const response = await get('/api/v1/search?type=Repository', { Origin: 'https://viewer.example' });
      expect(response.headers['access-control-allow-origin']).toBe('*');
    });

    it('answers a preflight without a token', async () => {
      const response = await preflight(testApp.server, '/api/v1/search').set(
        'Access-Control-Request-Headers',
        'authorization',
      );
      expect(response.status).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-headers']).toMatch(/authorization/i);
      expect(response.headers['access-control-allow-methods']).toContain('GET');
    });

    it('is enabled anywhere below /api, whatever the method', async () => {
      for (const [method, path] of [
        ['get', '/api/'],
        ['post', '/api/v2/search'],
        ['delete', '/api/v1/nl'],
      ] as const) {
        const response = await request(testApp.server)[method](path).set('Origin', 'https://viewer.example');
        expect(response.headers['access-control-allow-origin']).toBe('*');
      }
    });

    it('is not enabled outside /api', async () => {
      const response = await request(testApp.server).get('/health').set('Origin', 'https://viewer.example');
      expect(response.headers).not.toHaveProperty('access-control-allow-origin');
      const alike = await request(testApp.server).get('/apidocs').set('Origin', 'https://viewer.example');
      expect(alike.headers).not.toHaveProperty('access-control-allow-origin');
      const preflight = await request(testApp.server)
        .options('/health')
        .set('Origin', 'https://viewer.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(preflight.headers).not.toHaveProperty('access-control-allow-origin');
    });
  });

  describe('OpenAPI', () => {
    it('describes every portal route with its parameters, bearer auth and JSON:API responses', async () => {
      const response = await request(testApp.server).get('/openapi.json');
      expect(response.status).toBe(200);
      const paths: Record<string, { get?: Record<string, unknown> }> = response.body.paths;
      const portalPaths = Object.keys(paths).filter((route) => route.startsWith('/api/'));
      expect(portalPaths.sort()).toEqual([
        '/api/v1',
        '/api/v1/search',
        '/api/v1/{id}',
        '/api/v1/{id}/related',
        '/api/v1/{id}/search',
      ]);
      for (const route of portalPaths) {
        const operation = paths[route].get as {
          security: unknown[];
          responses: Record<string, { content?: Record<string, unknown> }>;
        };
        // The index needs no token: its security is the empty list.
        expect(operation.security).toEqual(route === '/api/v1' ? [] : [{ portal: [] }]);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '406']));
        expect(Object.keys(operation.responses['200'].content ?? {})).toEqual([JSONAPI]);
      }
      const searchParameters = (paths['/api/v1/{id}/search'].get as { parameters: { name: string }[] })
        .parameters;
      expect(searchParameters.map((parameter) => parameter.name).sort()).toEqual([
        'Accept-Language',
        'country',
        'facet',
        'fields',
        'holder',
        'id',
        'lang',
        'limit',
        'page',
        'q',
        'sort',
        'type',
      ]);
      const fetchResponses = Object.keys((paths['/api/v1/{id}'].get as { responses: object }).responses);
      expect(fetchResponses).toEqual(expect.arrayContaining(['200', '301', '400', '401', '404', '410']));
    });
  });
});

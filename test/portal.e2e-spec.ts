import request from 'supertest';
import { ItemWrite } from '../src/graph/graph-store';
import { joinPath } from '../src/items/identifiers';
import { assertPortalDocument } from './support/jsonapi-schema';
import { preflight } from './support/preflight';
import { countryWrite, repositoryWrite, unitWrite } from './support/portal-fixtures';
import { TestApp, createTestApp } from './support/test-app';

const PUBLIC_URL = 'https://portal.example.org';
const API = `${PUBLIC_URL}/api/v1`;
const JSONAPI = 'application/vnd.api+json';

/** Top-level units of the NIOD fixture repository: enough for three pages of ten. */
const TOP_LEVEL_COUNT = 25;
const topLevelLocalId = (n: number) => `NIOD-${String(n).padStart(3, '0')}`;

const NIOD = ['nl', 'niod'];
const NIOD_ID = joinPath(NIOD);
const JEWISH_COUNCIL = [...NIOD, topLevelLocalId(1)];
const CORRESPONDENCE = [...JEWISH_COUNCIL, 'corr'];
const LETTERS_1942 = [...CORRESPONDENCE, '1942'];
const MINUTES = [...JEWISH_COUNCIL, 'minutes'];

function fixtures(): ItemWrite[] {
  const writes = [
    countryWrite('nl', {
      summary: 'About 102,000 Jews were deported from the Netherlands.',
      history: 'Occupied by Germany from May 1940 to May 1945.',
    }),
    repositoryWrite('nl', 'niod', {
      name: 'NIOD Institute for War, Holocaust and Genocide Studies',
      address: {
        street: 'Herengracht 380',
        municipality: 'Amsterdam',
        firstdem: 'Noord-Holland',
        postalCode: '1016 CJ',
        countryCode: 'NL',
        email: 'info@niod.knaw.nl',
        telephone: ['+31 20 523 3800'],
        webpage: 'https://www.niod.nl',
      },
    }),
    repositoryWrite('nl', 'hcw', { name: 'Herinneringscentrum Kamp Westerbork' }),
    repositoryWrite('de', 'bundesarchiv', { name: 'Bundesarchiv' }),
  ];
  for (let n = 1; n <= TOP_LEVEL_COUNT; n++) {
    writes.push(
      unitWrite([...NIOD, topLevelLocalId(n)], {
        otherIdentifiers: [`archive ${n}`],
        descriptions: [
          {
            languageCode: 'eng',
            name: n === 1 ? 'Archive of the Jewish Council for Amsterdam' : `Collection ${n}`,
            extentAndMedium: `${n} boxes`,
            scopeAndContent: `Records kept by office ${n}, 1940-1945.`,
          },
        ],
      }),
    );
  }
  writes.push(
    unitWrite(CORRESPONDENCE, {
      descriptions: [
        { languageCode: 'eng', name: 'Correspondence', acquisition: 'Transferred in 1950.' },
        {
          languageCode: 'nld',
          identifier: 'nl-1',
          name: 'Correspondentie',
          parallelFormsOfName: ['Brieven'],
        },
      ],
    }),
    unitWrite(MINUTES, { descriptions: [{ languageCode: 'eng', name: 'Minutes of meetings' }] }),
    unitWrite(LETTERS_1942, {
      descriptions: [
        {
          languageCode: 'eng',
          name: 'Letters about Westerbork',
          scopeAndContent: 'Letters concerning deportations through camp Westerbork.',
        },
      ],
    }),
    unitWrite(['nl', 'hcw', 'hcw-1'], {
      descriptions: [
        { languageCode: 'eng', name: 'Camp registers', scopeAndContent: 'Registers of the Westerbork camp.' },
      ],
    }),
    unitWrite(['de', 'bundesarchiv', 'R 58'], {
      descriptions: [{ languageCode: 'deu', name: 'Reichssicherheitshauptamt' }],
    }),
  );
  return writes;
}

describe('Portal API v1 (through the real app on SQLite)', () => {
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    testApp = await createTestApp({ env: { PUBLIC_URL: `${PUBLIC_URL}/` } });
    token = await testApp.token('portal');
    await testApp.store.write((tx) => tx.putItems(fixtures()));
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** Every portal response: the bare JSON:API media type and a schema-valid document. */
  function checked(response: request.Response): request.Response {
    expect(response.headers['content-type']).toBe(JSONAPI);
    assertPortalDocument(response.body);
    return response;
  }

  async function get(path: string, headers: Record<string, string> = {}): Promise<request.Response> {
    const req = request(testApp.server).get(path).set('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    return checked(await req);
  }

  async function ok(path: string, headers?: Record<string, string>) {
    const response = await get(path, headers);
    expect(response.status).toBe(200);
    return response.body;
  }

  const ids = (body: { data: { id: string }[] }) => body.data.map((resource) => resource.id);

  /** Every result of a search, following `next` links from the first page. */
  async function allPages(path: string): Promise<string[]> {
    const found: string[] = [];
    let next: string | undefined = path;
    while (next !== undefined) {
      const body = await ok(next.replace(PUBLIC_URL, ''));
      found.push(...ids(body));
      next = body.links.next;
    }
    return found;
  }

  describe('index', () => {
    it('names the routes', async () => {
      const body = await ok('/api/v1');
      expect(body.links.self).toBe(API);
      expect(body.meta.routes).toEqual({
        search: `${API}/search`,
        fetch: `${API}/{id}`,
        searchIn: `${API}/{id}/search`,
        related: `${API}/{id}/related`,
      });
    });
  });

  describe('search', () => {
    it('filters by type, the most recently updated first without q, ties by id', async () => {
      const body = await ok('/api/v1/search?type=Repository');
      expect(ids(body)).toEqual(['de-bundesarchiv', 'nl-hcw', 'nl-niod']);
      expect(body.meta).toEqual({ total: 3, pages: 1 });
      expect(body.links).toEqual({
        first: `${API}/search?type=Repository`,
        last: `${API}/search?type=Repository`,
      });
    });

    it('ORs repeated types', async () => {
      const countries = (await ok('/api/v1/search?type=Country&limit=1')).meta.total;
      const repositories = (await ok('/api/v1/search?type=Repository&limit=1')).meta.total;
      const both = await allPages('/api/v1/search?type=Repository&type=Country&limit=100');
      expect(countries).toBeGreaterThan(0);
      expect(both).toHaveLength(countries + repositories);
      expect(both).toEqual(expect.arrayContaining(['nl', 'de', 'nl-niod', 'de-bundesarchiv']));
    });

    it('searches every portal type when no type is given, and nothing else', async () => {
      const user = await testApp.user('portal_reader');
      const everything = await allPages('/api/v1/search?limit=100');
      const units = (await ok('/api/v1/search?type=DocumentaryUnit')).meta.total;
      const countries = (await ok('/api/v1/search?type=Country')).meta.total;
      expect(everything).toHaveLength(countries + 3 + units);
      expect(everything).not.toContain(user);
    });

    it('finds text in names, identifiers and descriptions, names first', async () => {
      const body = await ok('/api/v1/search?q=westerbork');
      expect(ids(body).slice(0, 2).sort()).toEqual([joinPath(LETTERS_1942), 'nl-hcw'].sort());
      expect(ids(body)).toContain(joinPath(['nl', 'hcw', 'hcw-1']));
      expect(body.meta.total).toBe(3);
      expect(ids(await ok('/api/v1/search?q=R+58'))).toEqual([joinPath(['de', 'bundesarchiv', 'R 58'])]);
    });

    it('combines q with type', async () => {
      expect(ids(await ok('/api/v1/search?q=westerbork&type=Repository'))).toEqual(['nl-hcw']);
    });

    it('pages through results with absolute links that keep q, type and limit', async () => {
      const path = '/api/v1/search?q=records&type=DocumentaryUnit&limit=10';
      const first = await ok(path);
      expect(first.meta).toEqual({ total: TOP_LEVEL_COUNT, pages: 3 });
      const base = `${API}/search?q=records&type=DocumentaryUnit`;
      expect(first.links).toEqual({
        first: `${base}&limit=10`,
        last: `${base}&page=3&limit=10`,
        next: `${base}&page=2&limit=10`,
      });
      const middle = await ok(`${path}&page=2`);
      expect(middle.links).toEqual({
        first: `${base}&limit=10`,
        last: `${base}&page=3&limit=10`,
        prev: `${base}&limit=10`,
        next: `${base}&page=3&limit=10`,
      });
      const last = await ok(`${path}&page=3`);
      expect(last.links).toEqual({
        first: `${base}&limit=10`,
        last: `${base}&page=3&limit=10`,
        prev: `${base}&page=2&limit=10`,
      });
      expect(last.data).toHaveLength(5);
      const all = [...ids(first), ...ids(middle), ...ids(last)];
      expect(new Set(all).size).toBe(TOP_LEVEL_COUNT);
    });

    it('builds links from the configured public URL, never from the Host header', async () => {
      const body = await ok('/api/v1/search?type=Repository', {
        Host: 'attacker.example',
        'X-Forwarded-Host': 'attacker.example',
        'X-Forwarded-Proto': 'http',
      });
      expect(body.links.first.startsWith(`${API}/`)).toBe(true);
      expect(JSON.stringify(body)).not.toContain('attacker.example');
    });

    it('answers an empty page beyond the last one', async () => {
      const body = await ok('/api/v1/search?type=Repository&page=5');
      expect(body.data).toEqual([]);
      expect(body.links.prev).toBe(`${API}/search?type=Repository`);
      expect(body.links).not.toHaveProperty('next');
    });
  });

  describe('scoped search', () => {
    it("yields a country's repositories, including the country", async () => {
      const body = await ok('/api/v1/nl/search');
      expect(ids(body)).toEqual(['nl-hcw', 'nl-niod']);
      expect(body.included).toHaveLength(1);
      expect(body.included[0]).toMatchObject({ id: 'nl', type: 'Country', attributes: { identifier: 'nl' } });
      expect(body.included[0].meta.subitems).toBe(2);
    });

    it("yields a repository's top-level units only", async () => {
      const found = await allPages(`/api/v1/${NIOD_ID}/search?limit=10`);
      expect(found).toEqual(
        Array.from({ length: TOP_LEVEL_COUNT }, (_, i) => joinPath([...NIOD, topLevelLocalId(i + 1)])),
      );
    });

    it('pages a scoped search with links to the scoped route', async () => {
      const body = await ok(`/api/v1/${NIOD_ID}/search?limit=10&page=2`);
      expect(body.links).toEqual({
        first: `${API}/${NIOD_ID}/search?limit=10`,
        last: `${API}/${NIOD_ID}/search?page=3&limit=10`,
        prev: `${API}/${NIOD_ID}/search?limit=10`,
        next: `${API}/${NIOD_ID}/search?page=3&limit=10`,
      });
      expect(body.included.map((resource: { id: string }) => resource.id)).toEqual([NIOD_ID]);
    });

    it("yields a unit's direct children only", async () => {
      const body = await ok(`/api/v1/${joinPath(JEWISH_COUNCIL)}/search`);
      expect(ids(body)).toEqual([joinPath(CORRESPONDENCE), joinPath(MINUTES)]);
      expect(body.included[0].id).toBe(joinPath(JEWISH_COUNCIL));
    });

    it('searches every descendant of a unit with q', async () => {
      const body = await ok(`/api/v1/${joinPath(JEWISH_COUNCIL)}/search?q=westerbork`);
      expect(ids(body)).toEqual([joinPath(LETTERS_1942)]);
    });

    it("searches a repository's whole holdings with q, and nothing outside it", async () => {
      const body = await ok(`/api/v1/${NIOD_ID}/search?q=letters`);
      expect(ids(body)).toEqual([joinPath(LETTERS_1942)]);
      expect(ids(await ok('/api/v1/nl-hcw/search?q=letters'))).toEqual([]);
    });

    it('answers 404 for an unknown scope', async () => {
      const response = await get('/api/v1/nl-nowhere/search');
      expect(response.status).toBe(404);
      expect(response.body.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    });
  });

  describe('fetch', () => {
    it('returns a nested unit with its holder and parent included', async () => {
      const body = await ok(`/api/v1/${joinPath(CORRESPONDENCE)}`);
      expect(body.data.relationships).toEqual({
        holder: { data: { id: NIOD_ID, type: 'Repository' }, links: { related: `${API}/${NIOD_ID}` } },
        parent: {
          data: { id: joinPath(JEWISH_COUNCIL), type: 'DocumentaryUnit' },
          links: { related: `${API}/${joinPath(JEWISH_COUNCIL)}` },
        },
      });
      expect(body.data.attributes).toEqual({
        localId: 'corr',
        alternateIds: [],
        descriptions: [
          {
            languageCode: 'eng',
            language: 'English',
            name: 'Correspondence',
            parallelFormsOfName: [],
            unitDates: [],
            acquisition: 'Transferred in 1950.',
            languageOfMaterials: [],
            scriptOfMaterials: [],
          },
          {
            localId: 'nl-1',
            languageCode: 'nld',
            language: 'Dutch',
            name: 'Correspondentie',
            parallelFormsOfName: ['Brieven'],
            unitDates: [],
            languageOfMaterials: [],
            scriptOfMaterials: [],
          },
        ],
      });
      expect(body.data.links).toEqual({
        self: `${API}/${joinPath(CORRESPONDENCE)}`,
        search: `${API}/${joinPath(CORRESPONDENCE)}/search`,
        holder: `${API}/${NIOD_ID}`,
        parent: `${API}/${joinPath(JEWISH_COUNCIL)}`,
      });
      expect(body.data.meta).toMatchObject({ subitems: 1 });
      expect(new Date(body.data.meta.updated).toISOString()).toBe(body.data.meta.updated);
      expect(body.included.map((resource: { id: string }) => resource.id)).toEqual([
        NIOD_ID,
        joinPath(JEWISH_COUNCIL),
      ]);
    });

    it('finds the holder of a deeply nested unit through its ancestors', async () => {
      const body = await ok(`/api/v1/${joinPath(LETTERS_1942)}`);
      expect(body.data.relationships.holder.data).toEqual({ id: NIOD_ID, type: 'Repository' });
    });

    it('gives a top-level unit a null parent and includes only its holder', async () => {
      const body = await ok(`/api/v1/${joinPath(JEWISH_COUNCIL)}`);
      expect(body.data.relationships.parent).toBeNull();
      expect(body.data.links).not.toHaveProperty('parent');
      expect(body.data.meta.subitems).toBe(2);
      expect(body.included.map((resource: { id: string }) => resource.id)).toEqual([NIOD_ID]);
    });

    it('returns a repository with its address and country', async () => {
      const body = await ok(`/api/v1/${NIOD_ID}`);
      expect(body.data).toMatchObject({
        id: NIOD_ID,
        type: 'Repository',
        attributes: {
          name: 'NIOD Institute for War, Holocaust and Genocide Studies',
          address: {
            streetAddress: 'Herengracht 380',
            city: 'Amsterdam',
            region: 'Noord-Holland',
            postalCode: '1016 CJ',
            countryCode: 'NL',
            country: 'Netherlands',
            email: ['info@niod.knaw.nl'],
            telephone: ['+31 20 523 3800'],
            fax: [],
            url: ['https://www.niod.nl'],
          },
        },
        relationships: { country: { data: { id: 'nl', type: 'Country' } } },
        links: { self: `${API}/${NIOD_ID}`, search: `${API}/${NIOD_ID}/search`, country: `${API}/nl` },
        meta: { subitems: TOP_LEVEL_COUNT },
      });
      expect(body).not.toHaveProperty('included');
    });

    it('returns a country with its report fields and no relationships', async () => {
      const body = await ok('/api/v1/nl');
      expect(body.data).toEqual({
        id: 'nl',
        type: 'Country',
        attributes: {
          identifier: 'nl',
          name: 'Netherlands',
          summary: 'About 102,000 Jews were deported from the Netherlands.',
          history: 'Occupied by Germany from May 1940 to May 1945.',
        },
        links: { self: `${API}/nl`, search: `${API}/nl/search` },
        meta: { subitems: 2, updated: expect.any(String) },
      });
      expect((await ok('/api/v1/nl/search')).included).toEqual([body.data]);
    });

    it('returns the same object that search returns for the item', async () => {
      const unitPath = `/api/v1/${joinPath(LETTERS_1942)}`;
      const fetched = (await ok(unitPath)).data;
      const listed = (await ok(`/api/v1/${joinPath(CORRESPONDENCE)}/search`)).data;
      expect(listed).toEqual([fetched]);
      const repository = (await ok('/api/v1/nl-hcw')).data;
      const found = (await ok('/api/v1/search?q=westerbork&type=Repository')).data;
      expect(found).toEqual([repository]);
    });

    it('answers 404 for an unknown id and for items the portal does not serve', async () => {
      const user = await testApp.user();
      for (const id of ['nl-nowhere', user]) {
        const response = await get(`/api/v1/${id}`);
        expect(response.status).toBe(404);
        expect(response.body.errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
      }
    });
  });

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

  describe('answers kept between commits', () => {
    it('answers repeated requests as the store is now, after every commit', async () => {
      const search = '/api/v1/search?q=zeppelin';
      const airship = (name: string) =>
        unitWrite([...NIOD, 'airship'], { descriptions: [{ languageCode: 'eng', name }] });
      const { id } = airship('').bundle;
      const before = await ok(search);
      expect(before.meta.total).toBe(0);
      expect(await ok(search)).toEqual(before);
      try {
        await testApp.store.write((tx) => tx.putItems([airship('Zeppelin photographs')]));
        expect(ids(await ok(search))).toEqual([id]);
        const fetched = await ok(`/api/v1/${id}`);
        expect(fetched.data.attributes.descriptions[0].name).toBe('Zeppelin photographs');
        expect(await ok(`/api/v1/${id}`)).toEqual(fetched);
        await testApp.store.write((tx) => tx.putItems([airship('Zeppelin letters')]));
        expect((await ok(`/api/v1/${id}`)).data.attributes.descriptions[0].name).toBe('Zeppelin letters');
      } finally {
        await testApp.store.write((tx) => tx.deleteItems([id]));
      }
      expect(await ok(search)).toEqual(before);
      expect((await get(`/api/v1/${id}`)).status).toBe(404);
    });

    it('serves an item as the store is now in every answer that holds it, after a commit', async () => {
      const repositoryId = NIOD_ID;
      const subitemsIn = (resources: { id: string; meta: { subitems: number } }[]) =>
        resources.find((resource) => resource.id === repositoryId)?.meta.subitems;
      const subitemsBefore = (await ok(`/api/v1/${repositoryId}`)).data.meta.subitems;
      // The same version: other answers that hold the repository hold the same resource.
      expect(subitemsIn((await ok(`/api/v1/${repositoryId}/search`)).included)).toBe(subitemsBefore);
      const unit = unitWrite([...NIOD, 'late-arrival'], {
        descriptions: [{ languageCode: 'eng', name: 'Late' }],
      });
      try {
        await testApp.store.write((tx) => tx.putItems([unit]));
        // Answers asked for the first time at the new version, and one asked before it.
        expect(subitemsIn((await ok(`/api/v1/${repositoryId}/search?limit=5`)).included)).toBe(
          subitemsBefore + 1,
        );
        expect(subitemsIn((await ok('/api/v1/search?type=Repository')).data)).toBe(subitemsBefore + 1);
        expect((await ok(`/api/v1/${repositoryId}`)).data.meta.subitems).toBe(subitemsBefore + 1);
      } finally {
        await testApp.store.write((tx) => tx.deleteItems([unit.bundle.id]));
      }
      expect(subitemsIn((await ok(`/api/v1/${repositoryId}/search?limit=6`)).included)).toBe(subitemsBefore);
    });
  });
});

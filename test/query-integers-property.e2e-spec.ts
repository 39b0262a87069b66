import fc from 'fast-check';
import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/**
 * Every integer query parameter the OpenAPI document names, on every route that takes one, given
 * any value (huge, negative, fractional, not a number at all): never a server error, and a refusal
 * is a 400 in the error shape of the route's interface (JSON:API errors on the portal, the import
 * interface's error body elsewhere). Runs on both stores (`npm run test:neo4j` runs every e2e file).
 */

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string };
}

interface Operation {
  parameters?: Parameter[];
}

interface IntegerRoute {
  path: string;
  names: string[];
}

const RUNS = Number(process.env.QUERY_INTEGER_RUNS ?? 150);
/** Fewer runs where each answer is slow (Neo4j on a busy machine), as the fuzz test does. */
const TIME_LIMIT_MS = 40_000;

/** A value of an integer parameter: the edges of every range the stores have, and junk. */
const integerText = fc.oneof(
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.constantFrom(
    '0',
    '-1',
    '1',
    '100',
    '101',
    '1000000',
    '1000001',
    String(Number.MAX_SAFE_INTEGER),
    String(2n ** 53n),
    String(2n ** 63n - 1n),
    String(2n ** 63n),
    String(2n ** 64n),
    '99999999999999999999',
    '9'.repeat(400),
    '1e3',
    '1.5',
    '0x10',
    ' 1',
    '+1',
    '',
    'NaN',
    'Infinity',
  ),
  fc.string({ maxLength: 12 }),
);

describe('integer query parameters, from the OpenAPI document', () => {
  let t: ImportTestApp;
  let opsToken: string;
  let portalToken: string;
  let routes: IntegerRoute[];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createImportTestApp();
    opsToken = await t.token('ops');
    portalToken = await t.token('portal');
    const imported = await t
      .post('test-lines', { scope: 'r1', commit: 'true' })
      .set('Content-Type', 'application/xml')
      .send('q1 One\nq2 Two')
      .expect(201);
    ids.log = imported.body.event as string;
    const jobs = await request(t.server)
      .get('/import/jobs')
      .set('Authorization', `Bearer ${opsToken}`)
      .expect(200);
    ids.job = (jobs.body.items as { id: string }[])[0].id;
    const document = await request(t.server).get('/openapi.json').expect(200);
    const paths = document.body.paths as Record<string, Record<string, Operation>>;
    routes = Object.entries(paths)
      .filter(([, operations]) => operations.get !== undefined)
      .map(([path, operations]) => ({
        path,
        names: (operations.get.parameters ?? [])
          .filter((parameter) => parameter.in === 'query')
          .filter((parameter) => ['integer', 'number'].includes(parameter.schema?.type ?? ''))
          .map((parameter) => parameter.name),
      }))
      .filter((route) => route.names.length > 0);
    // A store's first schema and import are slow on a Neo4j server just started.
  }, 120_000);
  afterAll(() => t?.close());

  /** The route's path with its `{id}` filled with an existing thing of its kind. */
  function urlOf(path: string): string {
    const id = path.startsWith('/import/logs') ? ids.log : path.startsWith('/import/jobs') ? ids.job : 'r1';
    return path.replace('{id}', encodeURIComponent(id));
  }

  function get(path: string, query: Record<string, string>): request.Test {
    const portal = !path.startsWith('/import');
    return request(t.server)
      .get(urlOf(path))
      .query(query)
      .set('Authorization', `Bearer ${portal ? portalToken : opsToken}`);
  }

  function expectAnswered(path: string, response: request.Response): void {
    expect([200, 400]).toContain(response.status);
    if (response.status !== 400) return;
    if (path.startsWith('/import')) {
      expect(response.body).toMatchObject({ status: 400, error: 'Bad Request' });
      expect(typeof response.body.details).toBe('string');
    } else {
      expect(response.body.errors).toEqual([expect.objectContaining({ status: '400' })]);
    }
  }

  it('finds the paged routes of every interface', () => {
    const paths = routes.map((route) => route.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/import/logs', '/import/logs/{id}/changes', '/import/jobs', '/api/v1/search']),
    );
  });

  it('refuses a page past any integer with a 400 naming it, on the logs and their changes', async () => {
    for (const path of ['/import/logs', '/import/logs/{id}/changes']) {
      for (const page of ['99999999999999999999', String(2n ** 63n), '1000001']) {
        const response = await get(path, { page });
        expect(response.status).toBe(400);
        expect(response.body.details).toContain('"page"');
      }
    }
    const limit = await get('/import/jobs', { limit: '99999999999999999999' });
    expect(limit.status).toBe(400);
  });

  it('answers every value of every integer parameter without a server error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1000 }),
        fc.array(integerText, { minLength: 1, maxLength: 3 }),
        async (pick, values) => {
          const route = routes[pick % routes.length];
          const query = Object.fromEntries(
            values.map((value, index) => [route.names[(pick + index) % route.names.length], value]),
          );
          const response = await get(route.path, query);
          if (response.status >= 500) {
            throw new Error(`${route.path}?${new URLSearchParams(query)}: ${response.status}`);
          }
          expectAnswered(route.path, response);
        },
      ),
      { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, endOnFailure: true },
    );
  }, 90_000);
});

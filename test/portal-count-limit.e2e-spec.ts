import request from 'supertest';
import { ItemWrite } from '../src/graph/graph-store';
import { assertPortalDocument } from './support/jsonapi-schema';
import { countryWrite, repositoryWrite, unitWrite } from './support/portal-fixtures';
import { TestApp, createTestApp } from './support/test-app';
import { onNeo4j } from './support/test-store';

const PUBLIC_URL = 'https://portal.example.org';
const COUNT_LIMIT = 5;
const UNITS = 12;

function fixtures(): ItemWrite[] {
  return [
    countryWrite('nl', {}),
    repositoryWrite('nl', 'niod', { name: 'NIOD' }),
    ...Array.from({ length: UNITS }, (_, index) =>
      unitWrite(['nl', 'niod', `box-${String(index).padStart(2, '0')}`], {
        descriptions: [{ languageCode: 'eng', name: `Letters ${index}` }],
      }),
    ),
  ];
}

/**
 * `PORTAL_COUNT_LIMIT`: on Neo4j a search's total and facets count the first hits only, and
 * `meta.totalIsLowerBound` says so, the links paging through those; the embedded store counts
 * every hit, whatever the setting.
 */
describe(`Portal search totals past PORTAL_COUNT_LIMIT (${onNeo4j ? 'Neo4j' : 'SQLite'})`, () => {
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    testApp = await createTestApp({
      env: { PUBLIC_URL: `${PUBLIC_URL}/`, PORTAL_COUNT_LIMIT: String(COUNT_LIMIT) },
    });
    token = await testApp.token('portal');
    await testApp.store.write((tx) => tx.putItems(fixtures()));
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function ok(path: string) {
    const response = await request(testApp.server).get(path).set('Authorization', `Bearer ${token}`);
    expect(response.status).toBe(200);
    assertPortalDocument(response.body);
    return response.body;
  }

  it.each([
    ['everywhere', '/api/v1/search?q=letters&limit=2&facet=holder'],
    ['within a repository', '/api/v1/nl-niod/search?q=letters&limit=2&facet=holder'],
  ])('answers a text search %s with a bounded total on Neo4j, an exact one on SQLite', async (_, path) => {
    const body = await ok(path);
    expect(body.data).toHaveLength(2);
    const total = onNeo4j ? COUNT_LIMIT : UNITS;
    expect(body.meta).toMatchObject({ total, pages: Math.ceil(total / 2) });
    expect(body.meta.totalIsLowerBound).toBe(onNeo4j ? true : undefined);
    const [holder] = body.meta.facets;
    expect(holder.facets).toEqual([expect.objectContaining({ value: 'nl-niod', count: total })]);
    expect(body.links.next).toContain('page=2');
    expect(body.links.last).toContain(`page=${Math.ceil(total / 2)}`);
  });

  it('counts past the bound as far as the page asked for, so that it still links to the next', async () => {
    const body = await ok('/api/v1/search?q=letters&limit=2&page=4');
    expect(body.data).toHaveLength(2);
    // Counted up to one past the page: pages 1 to 4 and one hit more.
    const total = onNeo4j ? 4 * 2 + 1 : UNITS;
    expect(body.meta).toMatchObject({ total, pages: Math.ceil(total / 2) });
    expect(body.links.next).toContain('page=5');
  });

  it('answers exactly, with no lower bound, when the hits are fewer than the bound', async () => {
    const body = await ok('/api/v1/search?q=letters+1&limit=2');
    expect(body.meta).toEqual({ total: 3, pages: 2 });
  });
});

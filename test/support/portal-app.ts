import request from 'supertest';
import { ItemWrite } from '../../src/graph/graph-store';
import { joinPath } from '../../src/items/identifiers';
import { assertPortalDocument } from './jsonapi-schema';
import { countryWrite, repositoryWrite, unitWrite } from './portal-fixtures';
import { TestApp, createTestApp } from './test-app';

/**
 * What the portal API's tests (`test/portal-search`, `portal-fetch` and `portal-http.e2e-spec.ts`)
 * share: a real app on a store of its own holding the fixtures below, and requests that check that
 * every answer is a JSON:API document.
 */

export const PUBLIC_URL = 'https://portal.example.org';
export const API = `${PUBLIC_URL}/api/v1`;
export const JSONAPI = 'application/vnd.api+json';

/** Top-level units of the NIOD fixture repository: enough for three pages of ten. */
export const TOP_LEVEL_COUNT = 25;
export const topLevelLocalId = (n: number) => `NIOD-${String(n).padStart(3, '0')}`;

export const NIOD = ['nl', 'niod'];
export const NIOD_ID = joinPath(NIOD);
export const JEWISH_COUNCIL = [...NIOD, topLevelLocalId(1)];
export const CORRESPONDENCE = [...JEWISH_COUNCIL, 'corr'];
export const LETTERS_1942 = [...CORRESPONDENCE, '1942'];
export const MINUTES = [...JEWISH_COUNCIL, 'minutes'];

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

export interface PortalApp {
  testApp: TestApp;
  /** A token of the portal role. */
  token: string;
}

/** The app, with `PUBLIC_URL` set and the fixtures written. */
export async function startPortalApp(): Promise<PortalApp> {
  const testApp = await createTestApp({ env: { PUBLIC_URL: `${PUBLIC_URL}/` } });
  const token = await testApp.token('portal');
  await testApp.store.write((tx) => tx.putItems(fixtures()));
  return { testApp, token };
}

/** Every portal response: the bare JSON:API media type and a schema-valid document. */
export function checked(response: request.Response): request.Response {
  expect(response.headers['content-type']).toBe(JSONAPI);
  assertPortalDocument(response.body);
  return response;
}

export const ids = (body: { data: { id: string }[] }) => body.data.map((resource) => resource.id);

/** Requests with the portal token to the app `portal` gives (once its `beforeAll` has run). */
export function portalRequests(portal: () => PortalApp) {
  async function get(path: string, headers: Record<string, string> = {}): Promise<request.Response> {
    const { testApp, token } = portal();
    const req = request(testApp.server).get(path).set('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    return checked(await req);
  }

  async function ok(path: string, headers?: Record<string, string>) {
    const response = await get(path, headers);
    expect(response.status).toBe(200);
    return response.body;
  }

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

  return { get, ok, allPages };
}

import request from 'supertest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { addNamedItem } from '../../src/named-items/named-item';
import { joinPath } from '../../src/items/identifiers';
import { assertPortalDocument } from './jsonapi-schema';
import { createImportTestApp, ImportTestApp } from './import-client';
import { countryWrite, repositoryWrite, unitWrite } from './portal-fixtures';
import { EHRI_FIXTURES } from './fixture-paths';

/**
 * The data the portal's drop-in tests read (issue 31), imported through the real app: a Dutch
 * repository with a trilingual unit, an EAC agent in a set and a SKOS concept in a vocabulary, both
 * linked to the unit's child, and a fonds that ead-sync then changed (one unit moved, one deleted).
 */

export const PUBLIC_URL = 'https://portal.example.org';
export const API = `${PUBLIC_URL}/api/v1`;
const JSONAPI = 'application/vnd.api+json';
const EHRI = EHRI_FIXTURES;
export const SET = 'auths';
export const VOCABULARY = 'camps';
export const AGENT = 'auths-test_eac';
export const CONCEPT = `${VOCABULARY}-westerbork`;

const NIOD = ['nl', 'niod'];
export const NIOD_ID = joinPath(NIOD);
export const COUNCIL = [...NIOD, 'council'];
export const MINUTES = [...COUNCIL, 'minutes'];

const SKOS = `
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix ex: <http://example.org/camps/> .
ex:westerbork a skos:Concept ; skos:prefLabel "Westerbork transit camp"@en , "Durchgangslager Westerbork"@de ;
  skos:definition "A transit camp in Drenthe."@en ; skos:scopeNote "Use for the camp, not the village."@en .
`;

/** An EAD finding aid of fonds F with the given units under it (`id: [child ids]`). */
function ead(children: Record<string, string[]>): string {
  const unit = (id: string): string =>
    `<c><did><unitid>${id}</unitid><unittitle>Unit ${id}</unittitle></did>` +
    ((children[id] ?? []).length === 0 ? '' : `<dsc>${children[id].map(unit).join('')}</dsc>`) +
    '</c>';
  return `<?xml version="1.0" encoding="UTF-8"?>
<ead xmlns="urn:isbn:1-931666-22-9">
  <eadheader><eadid>F</eadid><filedesc><titlestmt><titleproper>F</titleproper></titlestmt></filedesc></eadheader>
  <archdesc level="fonds"><did><unitid>F</unitid><unittitle>Fonds F</unittitle></did>
    <dsc>${(children.F ?? []).map(unit).join('')}</dsc></archdesc>
</ead>`;
}

export interface ReferenceApp {
  t: ImportTestApp;
  synced: { deleted: string[]; moved: Record<string, string>; log: { event: string } };
  /** GET with a portal token; checks media type and both schemas on every answer but a 301. */
  get(url: string, headers?: Record<string, string>): Promise<request.Response>;
  /** GET that must answer 200; its body. Takes absolute URLs of the API too. */
  ok(url: string, headers?: Record<string, string>): Promise<request.Response['body']>;
}

export async function createReferenceApp(): Promise<ReferenceApp> {
  const t = await createImportTestApp({ PUBLIC_URL });
  const token = await t.token('portal');
  await t.store.write((tx) =>
    tx.putItems([
      countryWrite('nl', {}),
      repositoryWrite('nl', 'niod', { name: 'NIOD Institute' }),
      unitWrite(COUNCIL, {
        descriptions: [
          { languageCode: 'eng', name: 'Jewish Council' },
          { languageCode: 'deu', name: 'Judenrat' },
          { languageCode: 'nld', name: 'Joodse Raad' },
        ],
      }),
      unitWrite(MINUTES, { descriptions: [{ languageCode: 'eng', name: 'Minutes' }] }),
    ]),
  );
  await addNamedItem(t.store, 'AuthoritativeSet', SET, 'Authorities');
  await t
    .post('eac', { scope: SET, commit: 'true' })
    .set('Content-Type', 'application/xml')
    .send(readFileSync(path.join(EHRI, 'eac.xml')))
    .expect(201);
  await addNamedItem(t.store, 'CvocVocabulary', VOCABULARY, 'Camps');
  await t.post('skos', { scope: VOCABULARY, commit: 'true', format: 'Turtle' }).send(SKOS).expect(201);
  // The agent and the concept each linked to the minutes, which the related searches find.
  await t
    .post('links', { commit: 'true' })
    .send([
      [AGENT, joinPath(MINUTES), '', 'associative', '', 'Minutes of the body'],
      [CONCEPT, joinPath(MINUTES), '', 'associative', '', 'Minutes about the camp'],
    ])
    .expect(201);
  // The sync moves unit x from a to b and deletes unit gone.
  await t
    .post('ead', { scope: 'r1', commit: 'true' })
    .set('Content-Type', 'application/xml')
    .send(ead({ F: ['a', 'b', 'gone'], a: ['x'] }))
    .expect(201);
  const sync = await t
    .post('ead-sync', { scope: 'r1', commit: 'true' })
    .set('Content-Type', 'application/xml')
    .send(ead({ F: ['a', 'b'], b: ['x'] }))
    .expect(201);
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const req = request(t.server).get(url).set('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    const response = await req;
    if (response.status !== 301) {
      expect(response.headers['content-type']).toBe(JSONAPI);
      assertPortalDocument(response.body);
    }
    return response;
  };
  const ok = async (url: string, headers?: Record<string, string>) => {
    const response = await get(url.replace(PUBLIC_URL, ''), headers);
    expect(response.status).toBe(200);
    return response.body;
  };
  return { t, synced: sync.body, get, ok };
}

/**
 * Opens the reference app before the enclosing block's tests and closes it after them. `get` and
 * `ok` call the open app's; `app()` is the app itself.
 */
export function useReferenceApp(): Pick<ReferenceApp, 'get' | 'ok'> & { app(): ReferenceApp } {
  let app!: ReferenceApp;
  beforeAll(async () => {
    app = await createReferenceApp();
  });
  afterAll(async () => {
    await app?.t.close();
  });
  return { app: () => app, get: (...args) => app.get(...args), ok: (...args) => app.ok(...args) };
}

export const ids = (body: { data: { id: string }[] }) => body.data.map((resource) => resource.id);

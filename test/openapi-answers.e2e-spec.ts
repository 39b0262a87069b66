import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { ItemType } from '../src/items/item-types';
import { PORTAL_TYPES } from '../src/portal/portal-types';
import { ehriFixture } from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { OpenApiAnswers } from './support/openapi-answers';
import { until } from './support/polling';

/**
 * Real answers of every kind, each checked against the schema `/openapi.json` gives its operation
 * and status: a resource object of each portal type (searched, fetched, included), the portal's
 * index and errors, imports' answers and errors, jobs, stored logs and their changes, health and
 * metrics. The portal's schemas admit no attribute they do not name, and every attribute they name
 * is answered at least once here, so that a renamed attribute or a wrong type fails.
 */

const SET = 'auths';
const VOCABULARY = 'cvoc2';
/** The EAG 2012 test file with the repository fields it lacks. */
const EAG_2012 = readFileSync(path.resolve(__dirname, '../src/import/formats/eag/testdata/eag-2012.xml'))
  .toString('utf8')
  .replace(
    '<timetable>',
    '<adminhierarchy><adminunit>Three departments</adminunit></adminhierarchy>' +
      '<services><searchroom><researchServices><descriptiveNote><p>Help with research.</p>' +
      '</descriptiveNote></researchServices></searchroom><techservices><reproductionser question="yes">' +
      '<descriptiveNote><p>Scans on request.</p></descriptiveNote></reproductionser></techservices></services>' +
      '<timetable>',
  );
/** The reference's EAG 1 test file with mandates, which EAG 1 alone maps. */
const EAG_1 = ehriFixture('eag-2896.xml')
  .toString('utf8')
  .replace('<repositorhist>', '<mandates><p>A law of 1945.</p></mandates><repositorhist>');

/** The reference's EAC test file with the two fields it lacks. */
const EAC = ehriFixture('eac.xml')
  .toString('utf8')
  .replace(
    '</description>',
    '<structureOrGenealogy><p>Three departments.</p></structureOrGenealogy>' +
      '<generalContext><p>Wartime.</p></generalContext></description>',
  );

/** A fonds with a child, each field of a unit's description filled. */
const EAD = `<ead><eadheader><eadid>oa-fonds</eadid></eadheader>
<archdesc level="fonds"><did><unitid>F1</unitid><unitid type="former">OLD-1</unitid>
<unittitle>A fonds</unittitle><physdesc><extent>3 boxes</extent></physdesc>
<unitdate>1940-1945</unitdate>
<langmaterial><language langcode="eng" languagecode="eng">English</language></langmaterial></did>
<bioghist><p>A family firm.</p></bioghist><custodhist><p>Kept by the family.</p></custodhist>
<acqinfo><p>Bought in 1950.</p></acqinfo><scopecontent><p>Letters.</p></scopecontent>
<appraisal><p>Nothing destroyed.</p></appraisal><accruals><p>None expected.</p></accruals>
<arrangement><p>By year.</p></arrangement>
<dsc><c01 level="file"><did><unitid>F1-1</unitid><unittitle>A file</unittitle></did></c01></dsc>
</archdesc></ead>`;

/** A concept with a place, which the reference's SKOS test file lacks. */
const PLACE = `@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix geo: <http://www.w3.org/2003/01/geo/wgs84_pos#> .
<http://example.org/places/amsterdam> a skos:Concept ; skos:prefLabel "Amsterdam"@en ;
  geo:lat "52.37" ; geo:long "4.89" .`;

const COUNTRY_REPORTS =
  'countryCode,abstract,history,situation,dataSummary,dataExtensive\n' +
  'nl,In brief,A long history,The archives today,Summary,Extensive survey\n';

describe('answers and the OpenAPI document', () => {
  let t: ImportTestApp;
  let answers: OpenApiAnswers;
  let portalToken: string;
  let opsToken: string;
  let repositoryId: string;
  let fondsId: string;
  let fileId: string;
  /** Every attribute path answered for a type, e.g. `Repository: address.city`. */
  const attributesSeen = new Set<string>();

  const portal = (url: string) => request(t.server).get(url).set('Authorization', `Bearer ${portalToken}`);
  const ops = (url: string) => request(t.server).get(url).set('Authorization', `Bearer ${opsToken}`);

  async function imported(
    format: string,
    query: Record<string, string>,
    body: string | Buffer,
    contentType = 'application/xml',
  ): Promise<request.Response> {
    const answer = await t
      .post(format, { commit: 'true', ...query })
      .set('Content-Type', contentType)
      .send(body);
    answers.check('post', '/import/{format}', answer);
    if (answer.status !== 201) throw new Error(`${format}: ${answer.status} ${answer.text}`);
    return answer;
  }

  /** An authority set or vocabulary with a description, which no import sets. */
  async function addSet(type: ItemType, id: string, name: string): Promise<void> {
    const bundle: Bundle = {
      id,
      type,
      data: { identifier: id, name, description: `All ${name}` },
      relations: {},
    };
    await t.store.write((tx) => tx.putItems([{ bundle, hash: itemHash(bundle) }]));
  }

  function noteAttributes(type: string, value: unknown, prefix: string): void {
    if (Array.isArray(value)) {
      for (const element of value) noteAttributes(type, element, prefix);
    } else if (typeof value === 'object' && value !== null) {
      for (const [name, inner] of Object.entries(value)) {
        const at = prefix === '' ? name : `${prefix}.${name}`;
        attributesSeen.add(`${type}: ${at}`);
        noteAttributes(type, inner, at);
      }
    }
  }

  /** A portal answer, checked, with the attributes of its resources noted. */
  async function portalAnswer(route: string, url: string, status = 200): Promise<request.Response> {
    const answer = await portal(url);
    answers.check('get', route, answer);
    expect(answer.status).toBe(status);
    const resources = [
      ...(Array.isArray(answer.body.data) ? answer.body.data : answer.body.data ? [answer.body.data] : []),
      ...(answer.body.included ?? []),
    ] as { type: string; attributes: unknown }[];
    for (const resource of resources) noteAttributes(resource.type, resource.attributes, '');
    return answer;
  }

  beforeAll(async () => {
    t = await createImportTestApp();
    portalToken = await t.token('portal');
    opsToken = await t.token('ops');
    const document = await request(t.server).get('/openapi.json').expect(200);
    answers = new OpenApiAnswers(document.body);

    await addSet('AuthoritativeSet', SET, 'persons');
    await addSet('CvocVocabulary', VOCABULARY, 'keywords');
    const eag = await imported('eag', { scope: 'nl' }, EAG_2012);
    repositoryId = Object.values(eag.body.created_keys as Record<string, string[]>)[0][0];
    await imported('eag', { scope: 'nl' }, EAG_1);
    await imported('csv', { importer: 'countries', 'allow-update': 'true' }, COUNTRY_REPORTS, 'text/csv');
    const ead = await imported('ead', { scope: repositoryId }, EAD);
    // The fonds's id is a prefix of its file's.
    [fondsId, fileId] = Object.values(ead.body.created_keys as Record<string, string[]>)[0].sort();
    await imported('eac', { scope: SET }, EAC);
    await imported('skos', { scope: VOCABULARY, format: 'N3' }, ehriFixture('cvoc/simple.n3'));
    await imported('skos', { scope: VOCABULARY, format: 'text/turtle' }, PLACE, 'text/turtle');
  });
  afterAll(() => t?.close());

  it('answers resource objects of every portal type as their schemas have them', async () => {
    const everything = await portalAnswer(
      '/api/v1/search',
      `/api/v1/search?limit=100&facet=type&facet=lang&facet=country&facet=holder&${PORTAL_TYPES.map((type) => `type=${type}`).join('&')}`,
    );
    const types = new Set((everything.body.data as { type: string }[]).map(({ type }) => type));
    expect([...types].sort()).toEqual([...PORTAL_TYPES].sort());
    for (const { id } of everything.body.data as { id: string }[]) {
      await portalAnswer('/api/v1/{id}', `/api/v1/${encodeURIComponent(id)}`);
    }
    for (const scope of ['nl', repositoryId, fondsId, SET, VOCABULARY]) {
      const within = await portalAnswer('/api/v1/{id}/search', `/api/v1/${scope}/search?q=a`);
      expect(within.body.included).toHaveLength(1);
    }
    await portalAnswer('/api/v1/search', '/api/v1/search?fields[Repository]=name&type=Repository&limit=1');
    for (const { id } of everything.body.data as { id: string }[]) {
      const related = await portalAnswer('/api/v1/{id}/related', `/api/v1/${encodeURIComponent(id)}/related`);
      expect(related.body.included).toHaveLength(1);
    }

    expect([...attributesSeen].sort()).toEqual(documentedAttributes(answers.document).sort());
  });

  it('answers the index and errors of the portal as documented', async () => {
    await portalAnswer('/api/v1', '/api/v1');
    await portalAnswer('/api/v1/{id}', '/api/v1/no-such-item', 404);
    await portalAnswer('/api/v1/{id}/search', '/api/v1/no-such-item/search', 404);
    await portalAnswer('/api/v1/{id}/related', '/api/v1/no-such-item/related', 404);
    await portalAnswer('/api/v1/search', '/api/v1/search?q=%22open', 400);
    await portalAnswer('/api/v1/search', '/api/v1/search?type=Nothing', 400);
    const unauthorised = await request(t.server).get('/api/v1/search');
    answers.check('get', '/api/v1/search', unauthorised);
    expect(unauthorised.status).toBe(401);
    const notAcceptable = await portal('/api/v1/search').set('Accept', 'application/vnd.api+json; ext=x');
    answers.check('get', '/api/v1/search', notAcceptable);
    expect(notAcceptable.status).toBe(406);
  });

  it('answers imports, their errors, ead-sync and jobs as documented', async () => {
    const withoutFile = EAD.replace(/<dsc>.*<\/dsc>/s, '');
    const sync = await imported('ead-sync', { scope: repositoryId }, withoutFile);
    expect(sync.body).toMatchObject({ deleted: [fileId], moved: {} });
    await portalAnswer('/api/v1/{id}', `/api/v1/${fileId}`, 410);

    const refused = await t
      .post('ead', { scope: repositoryId, commit: 'true' })
      .set('Content-Type', 'application/xml')
      .send('<ead>');
    answers.check('post', '/import/{format}', refused);
    expect(refused.status).toBe(400);
    const unknown = await t
      .post('ead', { scope: 'nowhere' })
      .set('Content-Type', 'application/xml')
      .send(EAD);
    answers.check('post', '/import/{format}', unknown);
    expect(unknown.status).toBe(404);

    const accepted = await t
      .post('ead', { scope: repositoryId, 'allow-update': 'true', commit: 'true' })
      .set('Content-Type', 'application/xml')
      .set('Prefer', 'respond-async')
      .send(EAD.replace('Letters.', 'Letters and diaries.'));
    answers.check('post', '/import/{format}', accepted);
    expect(accepted.status).toBe(202);
    const jobUrl = `/import/jobs/${accepted.body.id as string}`;
    const job = await until(
      'the job',
      () => request(t.server).get(jobUrl).set('Authorization', `Bearer ${t.importToken}`),
      (answer) => answer.body.finished !== null,
    );
    answers.check('get', '/import/jobs/{id}', job);
    expect(job.body).toMatchObject({ state: 'committed', log: { updated: 1 } });
    const jobs = await request(t.server).get('/import/jobs').set('Authorization', `Bearer ${t.importToken}`);
    answers.check('get', '/import/jobs', jobs);
    expect(jobs.body.items).not.toHaveLength(0);
    const cancelFinished = await request(t.server)
      .delete(jobUrl)
      .set('Authorization', `Bearer ${t.importToken}`);
    answers.check('delete', '/import/jobs/{id}', cancelFinished);
    expect(cancelFinished.status).toBe(409);
  });

  it('answers stored import logs and their changes as documented', async () => {
    const logs = await ops('/import/logs?limit=100');
    answers.check('get', '/import/logs', logs);
    const items = logs.body.items as { id: string; endpoint: string; outcome: string; changes?: unknown }[];
    expect(new Set(items.map(({ endpoint }) => endpoint))).toEqual(
      new Set(['eag', 'csv', 'ead', 'eac', 'skos', 'ead-sync']),
    );
    expect(items.some(({ outcome }) => outcome === 'failed')).toBe(true);
    for (const { id } of items) answers.check('get', '/import/logs/{id}', await ops(`/import/logs/${id}`));
    const updating = items.find(({ changes }) => changes !== undefined);
    const changes = await ops(`/import/logs/${updating!.id}/changes`);
    answers.check('get', '/import/logs/{id}/changes', changes);
    expect(changes.body.items).not.toHaveLength(0);
    const missing = await ops('/import/logs/no-such-log');
    answers.check('get', '/import/logs/{id}', missing);
    expect(missing.status).toBe(404);
  });

  it('answers health and metrics as documented', async () => {
    for (const route of ['/health', '/health/live', '/health/ready']) {
      const answer = await request(t.server).get(route);
      answers.check('get', route, answer);
      expect(answer.status).toBe(200);
    }
    answers.check('get', '/metrics', await ops('/metrics'));
    const refused = await request(t.server).get('/metrics').set('Authorization', `Bearer ${portalToken}`);
    answers.check('get', '/metrics', refused);
    expect(refused.status).toBe(403);
  });
});

type Schema = { properties?: Record<string, Schema>; items?: Schema };

/** `Type: path` of every attribute the document's resource schemas name, nested ones included. */
function documentedAttributes(document: { components: { schemas: Record<string, Schema> } }): string[] {
  const paths: string[] = [];
  const walk = (type: string, schema: Schema, prefix: string) => {
    const inner = schema.items ?? schema;
    for (const [name, property] of Object.entries(inner.properties ?? {})) {
      const at = prefix === '' ? name : `${prefix}.${name}`;
      paths.push(`${type}: ${at}`);
      walk(type, property, at);
    }
  };
  for (const type of PORTAL_TYPES) {
    walk(type, document.components.schemas[type].properties!.attributes, '');
  }
  return paths;
}

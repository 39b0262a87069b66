import fc from 'fast-check';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { ItemType } from '../src/items/item-types';
import { itemHash } from '../src/items/change-detection';
import { addReferenceRepository, ehriFixture } from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { untilImportsLeftNothing } from './support/open-handles';

/**
 * Hostile input, generated: mutated and truncated documents of every format, random bytes, media
 * types and parameters into each import endpoint, random query strings and ids into the portal.
 * Nothing may be answered with a server error but those the service means (503, 507), and
 * afterwards the service must be up, with nothing left in its temporary folder, no file open
 * there and no connection open.
 * Bounded in time; fast-check prints the seed and the smallest failing case when one fails.
 */

/** Statuses a hostile request may get; anything else of 500 and up is a fault. */
const INTENDED_SERVER_ERRORS = new Set([503, 507]);
const IMPORT_RUNS = Number(process.env.FUZZ_IMPORT_RUNS ?? 300);
const PORTAL_RUNS = Number(process.env.FUZZ_PORTAL_RUNS ?? 500);
const TIME_LIMIT_MS = 40_000;

interface Target {
  endpoint: string;
  query: Record<string, string>;
  contentType: string;
  seed: Buffer;
}

function targets(): Target[] {
  const xml = 'application/xml';
  const links = Buffer.from('r1,r1,,associative,,A link\nnl,r1,,copy,,\n');
  return [
    { endpoint: 'ead', query: { scope: 'r1' }, contentType: xml, seed: ehriFixture('hierarchical-ead.xml') },
    { endpoint: 'ead', query: { scope: 'r1' }, contentType: xml, seed: ehriFixture('ead.xml') },
    { endpoint: 'ead-sync', query: { scope: 'r1' }, contentType: xml, seed: ehriFixture('ead.xml') },
    { endpoint: 'eag', query: { scope: 'nl' }, contentType: xml, seed: ehriFixture('eag.xml') },
    { endpoint: 'eac', query: { scope: 'auths' }, contentType: xml, seed: ehriFixture('eac.xml') },
    {
      endpoint: 'skos',
      query: { scope: 'vocab' },
      contentType: 'text/turtle',
      seed: ehriFixture('cvoc/simple.n3'),
    },
    {
      endpoint: 'skos',
      query: { scope: 'vocab' },
      contentType: 'application/rdf+xml',
      seed: ehriFixture('cvoc/camps.rdf'),
    },
    {
      endpoint: 'csv',
      query: { scope: 'r1', importer: 'units' },
      contentType: 'text/csv',
      seed: ehriFixture('simple.csv'),
    },
    { endpoint: 'links', query: {}, contentType: 'text/csv', seed: links },
    {
      endpoint: 'coreferences',
      query: { scope: 'r1' },
      contentType: 'text/csv',
      seed: Buffer.from('Test,r1\n'),
    },
  ];
}

/** One change to a document's bytes. */
type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'repeat'; at: number; length: number; times: number }
  | { kind: 'flip'; at: number; mask: number };

const position = fc.double({ min: 0, max: 1, noNaN: true });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: position,
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc
        .constantFrom(
          '<',
          '>',
          '&',
          '&amp;',
          '<c>',
          '</c>',
          ']]>',
          '<!ENTITY x "y">',
          '"',
          ',',
          '\n',
          '\r',
          '\u0000',
          '\uFFFF',
          '\uD800',
        )
        .map((text) => new TextEncoder().encode(text)),
    ),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.nat(200) }),
  fc.record({
    kind: fc.constant('repeat' as const),
    at: position,
    length: fc.nat(300),
    times: fc.integer({ min: 2, max: 50 }),
  }),
  fc.record({ kind: fc.constant('flip' as const), at: position, mask: fc.integer({ min: 1, max: 255 }) }),
);

function mutate(seed: Buffer, mutations: readonly Mutation[]): Buffer {
  let bytes = seed;
  for (const change of mutations) {
    const at = Math.floor(change.at * bytes.length);
    switch (change.kind) {
      case 'truncate':
        bytes = bytes.subarray(0, at);
        break;
      case 'insert':
        bytes = Buffer.concat([bytes.subarray(0, at), change.bytes, bytes.subarray(at)]);
        break;
      case 'delete':
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + change.length)]);
        break;
      case 'repeat': {
        const piece = bytes.subarray(at, at + change.length);
        bytes = Buffer.concat([
          bytes.subarray(0, at),
          ...Array<Buffer>(change.times).fill(piece),
          bytes.subarray(at),
        ]);
        break;
      }
      case 'flip':
        bytes = Buffer.from(bytes);
        if (at < bytes.length) bytes[at] ^= change.mask;
        break;
    }
  }
  return bytes;
}

const headerValue = fc.string({ unit: fc.constantFrom(...'abc/+;=-_ .*,"\'\\xml'.split('')), maxLength: 40 });
const contentType = (own: string) =>
  fc.oneof(
    fc.constant(own),
    fc.constantFrom(
      'application/xml',
      'text/plain',
      'application/json',
      'application/zip',
      'text/csv',
      'text/turtle',
    ),
    fc.constantFrom('application/xml; charset=utf-16', 'text/xml; charset=iso-8859-1', 'application/ld+json'),
    headerValue,
  );
const parameterName = fc.constantFrom(
  'commit',
  'tolerant',
  'allow-update',
  'use-source-id',
  'tag',
  'lang',
  'log',
  'handler',
  'importer',
  'properties',
  'missing-unitid',
  'fonds',
  'ex',
  'format',
  'baseURI',
  'suffix',
  'field-separator',
  'array-separator',
  'scope',
  'concept-scheme',
  'unknown',
);
const parameterValue = fc.oneof(
  fc.constantFrom(
    'true',
    'false',
    '',
    'eng',
    'deu',
    'xx',
    'position',
    'attribute',
    'r1',
    'nl',
    '../../etc/passwd',
    'http://127.0.0.1/',
    ';',
    '||',
  ),
  fc.string({ maxLength: 30 }),
);

describe('Fuzzing the import interface and the portal', () => {
  let t: ImportTestApp;
  let tempDir: string;
  let portalToken: string;
  let port: number;

  beforeAll(async () => {
    tempDir = await mkdtemp(path.join(tmpdir(), 'fuzz-temp-'));
    t = await createImportTestApp({
      IMPORT_TEMP_DIR: tempDir,
      IMPORT_MAX_BODY_BYTES: String(4 * 1024 * 1024),
    });
    await addReferenceRepository(t);
    const scope = (id: string, type: ItemType) => {
      const bundle = { id, type, data: { identifier: id }, relations: {} };
      return { bundle, hash: itemHash(bundle) };
    };
    await t.store.write((tx) =>
      tx.putItems([scope('auths', 'AuthoritativeSet'), scope('vocab', 'CvocVocabulary')]),
    );
    portalToken = await t.token('portal');
    // Each format's document committed once: mutated ones then update items as well as create them.
    for (const target of targets()) {
      await t
        .post(target.endpoint, { ...target.query, commit: 'true', tolerant: 'true' })
        .set('Content-Type', target.contentType)
        .send(target.seed);
    }
    t.server.listen(0, '127.0.0.1');
    await once(t.server, 'listening');
    port = (t.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await rm(tempDir, { recursive: true, force: true });
  });

  const faults: string[] = [];
  const noteStatus = (what: string, status: number, body: unknown) => {
    if (status >= 500 && !INTENDED_SERVER_ERRORS.has(status))
      faults.push(`${what}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
    return status < 500 || INTENDED_SERVER_ERRORS.has(status);
  };

  it('answers mutated documents, random bytes, media types and parameters without a server fault', async () => {
    const all = targets();
    const importCase = fc.record({
      target: fc.nat(all.length - 1),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
      randomBody: fc.option(fc.uint8Array({ maxLength: 2048 }), { freq: 5 }),
      contentType: fc.nat(all.length - 1).chain((index) => contentType(all[index].contentType)),
      commit: fc.boolean(),
      parameters: fc.array(fc.tuple(parameterName, parameterValue), { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(importCase, async (input) => {
        const target = all[input.target];
        const body =
          input.randomBody === null ? mutate(target.seed, input.mutations) : Buffer.from(input.randomBody);
        const query: Record<string, string> = { ...target.query, commit: String(input.commit) };
        for (const [name, value] of input.parameters) query[name] = value;
        const answer = await t.post(target.endpoint, query).set('Content-Type', input.contentType).send(body);
        return noteStatus(`POST /import/${target.endpoint}`, answer.status, answer.body);
      }),
      { numRuns: IMPORT_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, endOnFailure: true },
    );
    expect(faults).toEqual([]);
  });

  it('answers random query strings and ids on the portal without a server fault', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom('"', '*', 'AND', 'NOT -x', 'name:', '(', 'a'.repeat(2000)),
    );
    const portalCase = fc.record({
      path: fc.oneof(
        fc.constant('/api/v1/search'),
        text.map((id) => `/api/v1/${encodeURIComponent(id)}`),
        text.map((id) => `/api/v1/${encodeURIComponent(id)}/search`),
        fc.constantFrom('/api/v1/nl', '/api/v1/r1/search', '/api/v1/nl-r1-ctop_level_fonds'),
      ),
      query: fc.array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(
              'q',
              'type',
              'page',
              'limit',
              'sort',
              'facet',
              'lang',
              'country',
              'holder',
              'fields[Repository]',
              'include',
            ),
            fc.string({ maxLength: 8 }),
          ),
          text,
        ),
        { maxLength: 4 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(portalCase, async ({ path: urlPath, query }) => {
        const search = new URLSearchParams(query).toString();
        const answer = await request(t.server)
          .get(search === '' ? urlPath : `${urlPath}?${search}`)
          .set('Authorization', `Bearer ${portalToken}`);
        return noteStatus(`GET ${urlPath}?${search}`, answer.status, answer.body);
      }),
      { numRuns: PORTAL_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, endOnFailure: true },
    );
    expect(faults).toEqual([]);
  });

  it('is up afterwards, with nothing left in its temporary folder and no connection open', async () => {
    await untilImportsLeftNothing(tempDir, port);
    await request(t.server).get('/health').expect(200);
  });
});

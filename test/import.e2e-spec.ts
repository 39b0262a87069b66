import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/**
 * The import run shared by every format, driven through the test-only formats of
 * `support/import-test-formats.ts` (`<localId> <name>` per line; `!invalid`, `!fail`, `!crash`).
 */
describe('POST /import/:format — the import run', () => {
  let app: ImportTestApp;

  beforeAll(async () => {
    app = await createImportTestApp();
  });
  afterAll(() => app.close());

  const xml = (test: request.Test, body: string) => test.set('Content-Type', 'application/xml').send(body);
  const names = async (ids: string[]) => {
    const items = await app.items(ids);
    return ids.map((id) => items.get(id)?.relations.describes?.map((d) => d.data.name));
  };

  describe('authentication and the acting user', () => {
    it('answers 401 in the error format without a token', async () => {
      const response = await request(app.server)
        .post('/import/test-lines')
        .set('X-User', app.userId)
        .set('Content-Type', 'application/xml')
        .send('a A');
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        status: 401,
        error: 'Unauthorized',
        details: expect.any(String),
        requestId: response.headers['x-request-id'],
      });
    });

    it('answers 403 to a token of another role', async () => {
      const response = await request(app.server)
        .post('/import/test-lines')
        .set('Authorization', `Bearer ${await app.token('portal')}`)
        .set('X-User', app.userId)
        .set('Content-Type', 'application/xml')
        .send('a A');
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ status: 403, error: 'Forbidden' });
    });

    it('needs X-User naming a known user', async () => {
      const missing = await xml(
        request(app.server).post('/import/test-lines').set('Authorization', `Bearer ${app.importToken}`),
        'a A',
      );
      expect(missing.status).toBe(400);
      expect(missing.body.details).toMatch(/X-User/);

      const unknown = await xml(app.post('test-lines', { scope: 'r1' }).set('X-User', 'nobody'), 'a A');
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({
        status: 400,
        error: 'Bad Request',
        details: 'Unknown user: nobody',
        requestId: unknown.headers['x-request-id'],
      });
    });
  });

  describe('parameters', () => {
    it.each([
      ['commit', 'yes'],
      ['tolerant', 'maybe'],
      ['allow-update', '2'],
      ['use-source-id', ''],
    ])('refuses %s=%j', async (name, value) => {
      const response = await xml(app.post('test-lines', { scope: 'r1', [name]: value }), 'a A');
      expect(response.status).toBe(400);
      expect(response.body.details).toContain(`"${name}"`);
    });

    it('refuses a parameter given twice', async () => {
      const response = await xml(app.post('test-lines').query('scope=r1&commit=true&commit=false'), 'a A');
      expect(response.status).toBe(400);
      expect(response.body.details).toContain('"commit"');
    });

    it('answers 404 for an unknown scope and an unknown format', async () => {
      const scope = await xml(app.post('test-lines', { scope: 'no-such-repo' }), 'a A');
      expect(scope.status).toBe(404);
      expect(scope.body).toEqual({
        status: 404,
        error: 'Not Found',
        details: 'Scope not found: no-such-repo',
        requestId: scope.headers['x-request-id'],
      });

      const format = await xml(app.post('no-such-format', { scope: 'r1' }), 'a A');
      expect(format.status).toBe(404);
    });

    it('answers a path the router cannot decode in the error format, as any other error', async () => {
      for (const path of ['/import/%ZZ', '/import/logs/%E0%A4%A']) {
        const response = await request(app.server)
          .post(path)
          .set('Content-Type', 'application/xml')
          .send('a A');
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          status: 400,
          error: 'Bad Request',
          details: expect.stringMatching(/not a valid URL/),
          requestId: response.headers['x-request-id'],
        });
        expect(response.headers['x-request-id']).toEqual(expect.any(String));
      }
    });

    it('answers a Content-Type that cannot be parsed, and an unknown route, in the error format', async () => {
      const unparsable = await app.post('test-lines').set('Content-Type', ';;;').send('a A');
      expect(unparsable.status).toBe(415);
      expect(unparsable.body).toEqual({
        status: 415,
        error: 'Unsupported Media Type',
        details: expect.any(String),
        requestId: unparsable.headers['x-request-id'],
      });
      const unknown = await request(app.server).get('/import/test-lines');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({
        status: 404,
        error: 'Not Found',
        details: expect.any(String),
        requestId: unknown.headers['x-request-id'],
      });
    });

    it('refuses a scope of a type the format does not take, and a missing required scope', async () => {
      const wrongType = await xml(app.post('test-lines', { scope: app.userId }), 'a A');
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.details).toContain('UserProfile');

      const missing = await app.post('test-raw').set('Content-Type', 'text/plain').send('a A');
      expect(missing.status).toBe(400);
      expect(missing.body.details).toContain('needs a scope');
    });

    it('answers Class not found for an unknown handler or importer', async () => {
      const handler = await xml(app.post('test-lines', { scope: 'r1', handler: 'IDontExist' }), 'a A');
      expect(handler.status).toBe(400);
      expect(handler.body.details).toBe('Class not found: IDontExist');

      const importer = await xml(app.post('test-lines', { scope: 'r1', importer: 'x.y.Z' }), 'a A');
      expect(importer.body.details).toBe('Class not found: x.y.Z');
    });

    it('selects the reader by its short or class name', async () => {
      const byClass = await xml(
        app.post('test-lines', { scope: 'r1', handler: 'org.example.LinesHandler', importer: 'lines' }),
        'h1 By class name',
      );
      expect(byClass.status).toBe(201);
      expect(byClass.body.created).toBe(1);

      // `raw` names the raw reader, which records the media type it was given.
      const other = await app
        .post('test-lines', { scope: 'r1', handler: 'raw', commit: 'true' })
        .set('Content-Type', 'text/plain')
        .send('h2 Raw');
      expect(other.status).toBe(201);
      expect((await app.items(['r1-h2'])).get('r1-h2')?.data.contentType).toBe('text/plain');
    });

    it('normalises lang to ISO 639-2/T and refuses unknown codes', async () => {
      await xml(app.post('test-lines', { scope: 'r1', lang: 'de', commit: 'true' }), 'lang1 Deutsch');
      const description = (await app.items(['r1-lang1'])).get('r1-lang1')?.relations.describes?.[0];
      expect(description?.data.languageCode).toBe('deu');

      const unknown = await xml(app.post('test-lines', { scope: 'r1', lang: 'xx-nope' }), 'lang2 X');
      expect(unknown.status).toBe(400);
      expect(unknown.body.details).toContain('xx-nope');
    });

    it('refuses an empty body', async () => {
      const response = await xml(app.post('test-lines', { scope: 'r1' }), '');
      expect(response.status).toBe(400);
      expect(response.body.details).toBe('The request body is empty');
    });
  });

  describe('dry run and commit', () => {
    it('answers what a dry run would do and leaves nothing behind', async () => {
      const response = await xml(app.post('test-lines', { scope: 'r1', tag: 'dry.xml' }), 'd1 One\nd2 Two\n');
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        created: 2,
        created_keys: { 'dry.xml': ['r1-d1', 'r1-d2'] },
        updated: 0,
        updated_keys: {},
        unchanged: 0,
        unchanged_keys: {},
        errors: {},
        message: null,
        event: null,
        timings: expect.objectContaining({ total: expect.any(Number) }),
      });
      expect((await app.items(['r1-d1', 'r1-d2'])).size).toBe(0);
    });

    it('commits, then finds the same data unchanged', async () => {
      const first = await xml(app.post('test-lines', { scope: 'r1', commit: 'true' }), 'c1 One\nc2 Two\n');
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ created: 2, created_keys: { '-': ['r1-c1', 'r1-c2'] } });
      expect(first.body.event).toEqual(expect.any(String));
      expect([...(await app.items(['r1-c1', 'r1-c2'])).keys()]).toEqual(['r1-c1', 'r1-c2']);

      const again = await xml(app.post('test-lines', { scope: 'r1', commit: 'true' }), 'c2 Two\nc1 One\n');
      expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
      expect(again.body.unchanged_keys).toEqual({ '-': ['r1-c2', 'r1-c1'] });
    });
  });

  describe('validation and input errors', () => {
    it('fails on an invalid item unless tolerant, naming the item and field', async () => {
      const body = 'v1 Good\n!invalid v2 missing title\nv3 Also good\n';
      const strict = await xml(app.post('test-lines', { scope: 'r1', commit: 'true', tag: 'v.xml' }), body);
      expect(strict.status).toBe(400);
      expect(strict.body.details).toEqual({ message: 'v2: name: missing title', tag: 'v.xml', key: 'v2' });
      expect((await app.items(['r1-v1', 'r1-v3'])).size).toBe(0);

      const tolerant = await xml(
        app.post('test-lines', { scope: 'r1', commit: 'true', tolerant: 'true', tag: 'v.xml' }),
        body,
      );
      expect(tolerant.status).toBe(201);
      expect(tolerant.body).toMatchObject({
        created: 2,
        created_keys: { 'v.xml': ['r1-v1', 'r1-v3'] },
        errors: { v2: 'v2: name: missing title' },
      });
    });

    it('lists ids under a tag named __proto__ and errors under such a key like any other', async () => {
      const response = await xml(
        app.post('test-lines', { scope: 'r1', tolerant: 'true', tag: '__proto__' }),
        'pr1 Proto\n!invalid __proto__ no name\n',
      );
      expect(response.status).toBe(201);
      // Own keys of the parsed answer: reading them by name would not tell them from a prototype.
      expect(Object.entries(response.body.created_keys)).toEqual([['__proto__', ['r1-pr1']]]);
      expect(Object.entries(response.body.errors)).toEqual([['__proto__', '__proto__: name: no name']]);
    });

    it('answers a parse error with its tag, line and column, and commits nothing', async () => {
      const response = await xml(
        app.post('test-lines', { scope: 'r1', commit: 'true', tag: 'broken.xml' }),
        'p1 Fine\n!fail here\n',
      );
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual({
        message: 'bad line: !fail here',
        tag: 'broken.xml',
        line: 2,
        column: 1,
      });
      expect((await app.items(['r1-p1'])).size).toBe(0);
    });

    it('answers 500 without internals when a reader breaks, and commits nothing', async () => {
      const response = await xml(
        app.post('test-lines', { scope: 'r1', commit: 'true' }),
        'x1 Fine\n!crash\n',
      );
      expect(response.status).toBe(500);
      expect(JSON.stringify(response.body)).not.toContain('crashed');
      expect((await app.items(['r1-x1'])).size).toBe(0);
    });
  });

  describe('updates', () => {
    it('refuses a changed item unless allow-update, naming it', async () => {
      await xml(app.post('test-lines', { scope: 'r1', commit: 'true' }), 'up1 Title\nup2 Other\n');
      const refused = await xml(app.post('test-lines', { scope: 'r1', commit: 'true' }), 'up1 New title\n');
      expect(refused.status).toBe(400);
      expect(refused.body.details).toMatchObject({ id: 'r1-up1' });
      expect(refused.body.details.message).toContain('r1-up1');
      expect(await names(['r1-up1'])).toEqual([['Title']]);

      const allowed = await xml(
        app.post('test-lines', { scope: 'r1', commit: 'true', 'allow-update': 'true' }),
        'up1 New title\nup2 Other\n',
      );
      expect(allowed.body).toMatchObject({
        updated: 1,
        updated_keys: { '-': ['r1-up1'] },
        unchanged: 1,
        unchanged_keys: { '-': ['r1-up2'] },
      });
      expect(await names(['r1-up1'])).toEqual([['New title']]);
    });

    it('keeps descriptions in other languages when a description is updated', async () => {
      await xml(app.post('test-lines', { scope: 'r1', commit: 'true', lang: 'eng' }), 'ml1 English');
      const french = await xml(
        app.post('test-lines', { scope: 'r1', commit: 'true', lang: 'fre', 'allow-update': 'true' }),
        'ml1 Français',
      );
      expect(french.body).toMatchObject({ updated: 1 });
      expect((await names(['r1-ml1']))[0]?.sort()).toEqual(['English', 'Français']);
    });
  });

  describe('an id produced twice in one import', () => {
    it('counts a new item once, holding the last content', async () => {
      const response = await xml(
        app.post('test-lines', { scope: 'r1', commit: 'true' }),
        'dup1 First\ndup1 Second\ndup1 Second\n',
      );
      expect(response.body).toMatchObject({
        created: 1,
        created_keys: { '-': ['r1-dup1'] },
        updated: 0,
        unchanged: 0,
      });
      expect(await names(['r1-dup1'])).toEqual([['Second']]);
    });

    it('counts an existing item once, and still needs allow-update to change it', async () => {
      await xml(app.post('test-lines', { scope: 'r1', commit: 'true' }), 'dup2 Stored');
      const twiceSame = await xml(app.post('test-lines', { scope: 'r1' }), 'dup2 Stored\ndup2 Stored\n');
      expect(twiceSame.body).toMatchObject({ created: 0, updated: 0, unchanged: 1 });

      const changedLater = await xml(app.post('test-lines', { scope: 'r1' }), 'dup2 Stored\ndup2 Changed\n');
      expect(changedLater.status).toBe(400);
      expect(changedLater.body.details).toMatchObject({ id: 'r1-dup2' });

      const allowed = await xml(
        app.post('test-lines', { scope: 'r1', 'allow-update': 'true' }),
        'dup2 Stored\ndup2 Changed\n',
      );
      expect(allowed.body).toMatchObject({ updated: 1, updated_keys: { '-': ['r1-dup2'] }, unchanged: 0 });
    });
  });

  describe('parameter files', () => {
    it('hands the properties mapping from a file inside the roots to the reader', async () => {
      await writeFile(path.join(app.root, 'mapping.properties'), 'did/unittitle=name\n');
      const response = await xml(
        app.post('test-lines', { scope: 'r1', commit: 'true', properties: 'mapping.properties' }),
        'map1 Mapped',
      );
      expect(response.status).toBe(201);
      expect((await app.items(['r1-map1'])).get('r1-map1')?.data.mapping).toBe('did/unittitle=name\n');
    });

    it('refuses a properties file outside the roots', async () => {
      const response = await xml(
        app.post('test-lines', { scope: 'r1', properties: '/etc/hostname' }),
        'map2 X',
      );
      expect(response.status).toBe(400);
      expect(response.body.details).toContain('/etc/hostname');
    });
  });

  describe('the finish step', () => {
    it('lets a format change the store after the run and shape the answer', async () => {
      await xml(app.post('test-lines', { scope: 'r1', commit: 'true' }), 'gone1 Old\nkept1 Kept\n');
      const response = await xml(
        app.post('test-sync').query('scope=r1&commit=true&delete=r1-gone1&delete=r1-kept1'),
        'kept1 Kept\nnew1 New\n',
      );
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        log: { created: 1, unchanged: 1, event: expect.any(String) },
        deleted: ['r1-gone1'],
      });
      expect([...(await app.items(['r1-gone1', 'r1-kept1', 'r1-new1'])).keys()].sort()).toEqual([
        'r1-kept1',
        'r1-new1',
      ]);
    });

    it('deletes nothing in a dry run', async () => {
      await xml(app.post('test-lines', { scope: 'r1', commit: 'true' }), 'gone2 Old');
      const response = await xml(app.post('test-sync').query('scope=r1&delete=r1-gone2'), 'other2 X');
      expect(response.body).toMatchObject({ log: { event: null }, deleted: ['r1-gone2'] });
      expect((await app.items(['r1-gone2'])).size).toBe(1);
    });
  });

  it('runs concurrent imports one after the other, all of them succeeding', async () => {
    const bodies = ['cc1 One\ncc2 Two', 'cc3 Three\ncc4 Four', 'cc5 Five\ncc1 One'];
    const responses = await Promise.all(
      bodies.map((body) => xml(app.post('test-lines', { scope: 'r1', commit: 'true' }), body)),
    );
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201]);
    const total = responses.reduce(
      (sum, response) => sum + response.body.created + response.body.unchanged,
      0,
    );
    expect(total).toBe(6);
    expect((await app.items(['r1-cc1', 'r1-cc2', 'r1-cc3', 'r1-cc4', 'r1-cc5'])).size).toBe(5);
  });
});

describe('POST /import/:format — body limit', () => {
  let app: ImportTestApp;

  beforeAll(async () => {
    app = await createImportTestApp({ IMPORT_MAX_BODY_BYTES: '1000' });
  });
  afterAll(() => app.close());

  it('answers 413 to a body over IMPORT_MAX_BODY_BYTES', async () => {
    const body = Array.from({ length: 200 }, (_, index) => `big${index} Unit`).join('\n');
    const response = await app
      .post('test-lines', { scope: 'r1', commit: 'true' })
      .set('Content-Type', 'application/xml')
      .send(body);
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ status: 413, error: 'Payload Too Large' });
    expect((await app.items(['r1-big0'])).size).toBe(0);
  });

  it('answers 413 to a chunked body that crosses the limit', async () => {
    // Written piece by piece, the body has no Content-Length: the limit is found while reading.
    const upload = app.post('test-lines', { scope: 'r1' }).set('Content-Type', 'application/xml');
    for (let index = 0; index < 40; index += 1) upload.write(`chunk${index} ${'x'.repeat(40)}\n`);
    const response = await upload;
    expect(response.status).toBe(413);
  });

  it('accepts a body within the limit', async () => {
    const response = await app
      .post('test-lines', { scope: 'r1' })
      .set('Content-Type', 'application/xml')
      .send('small Unit');
    expect(response.status).toBe(201);
  });
});

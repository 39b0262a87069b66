import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/**
 * The requests of the import run shared by every format (who may send them, their parameters and
 * parameter files, the body's limit), driven through the test-only formats of
 * `support/import-test-formats.ts` (`<localId> <name>` per line; `!invalid`, `!fail`, `!crash`).
 */
describe('POST /import/:format — the import run', () => {
  let app: ImportTestApp;

  beforeAll(async () => {
    app = await createImportTestApp();
  });
  afterAll(() => app.close());

  const xml = (test: request.Test, body: string) => test.set('Content-Type', 'application/xml').send(body);

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

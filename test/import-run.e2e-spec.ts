import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/**
 * The import run shared by every format (dry run and commit, validation, updates, ids produced twice,
 * the finish step, concurrent imports), driven through the test-only formats of
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

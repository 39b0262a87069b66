import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ArchiveFormat, buildArchive, renameZipEntries } from './support/archives';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/** The body kinds of `documents` formats: one document, path list, URL map, archives. */
describe('POST /import/:format — body kinds', () => {
  let app: ImportTestApp;
  let outside: string;

  beforeAll(async () => {
    app = await createImportTestApp();
    outside = await mkdtemp(path.join(tmpdir(), 'import-outside-'));
  });
  afterAll(async () => {
    await app.close();
    await rm(outside, { recursive: true, force: true });
  });

  const ids = async (candidates: string[]) => [...(await app.items(candidates)).keys()].sort();

  it('reads an XML body as one document tagged with `tag`, any +xml type included', async () => {
    const response = await app
      .post('test-lines', { scope: 'r1', tag: 'one.xml' })
      .set('Content-Type', 'application/ead+xml; charset=utf-8')
      .send('x1 One');
    expect(response.status).toBe(201);
    expect(response.body.created_keys).toEqual({ 'one.xml': ['r1-x1'] });
  });

  describe('path lists (text/plain)', () => {
    it('reads each listed file inside the roots, tagged with its path', async () => {
      await mkdir(path.join(app.root, 'sub'), { recursive: true });
      await writeFile(path.join(app.root, 'a.txt'), 'pl1 One\n');
      await writeFile(path.join(app.root, 'sub', 'b.txt'), 'pl2 Two\n');
      const absolute = path.join(app.root, 'a.txt');
      const response = await app
        .post('test-lines', { scope: 'r1', commit: 'true' })
        .set('Content-Type', 'text/plain')
        .send(`${absolute}\r\n\r\nsub/b.txt\n`);
      expect(response.status).toBe(201);
      expect(response.body.created_keys).toEqual({ [absolute]: ['r1-pl1'], 'sub/b.txt': ['r1-pl2'] });
    });

    it('refuses the whole list when a path leads outside the roots, importing nothing', async () => {
      await writeFile(path.join(app.root, 'good.txt'), 'pl3 Good\n');
      const foreign = path.join(outside, 'foreign.txt');
      await writeFile(foreign, 'pl4 Foreign\n');
      await symlink(foreign, path.join(app.root, 'link.txt'));
      for (const bad of [
        foreign,
        '../' + path.basename(outside) + '/foreign.txt',
        'link.txt',
        'missing.txt',
      ]) {
        const response = await app
          .post('test-lines', { scope: 'r1', commit: 'true' })
          .set('Content-Type', 'text/plain')
          .send(`good.txt\n${bad}\n`);
        expect(response.status).toBe(400);
        expect(response.body.details).toMatchObject({ paths: [bad] });
      }
      expect(await ids(['r1-pl3', 'r1-pl4'])).toEqual([]);
    });
  });

  describe('archives', () => {
    const documents = { 'a.xml': 'ar1 One\n', 'dir/b.xml': 'ar2 Two\n' };

    it.each<ArchiveFormat>(['zip', 'tar', 'tar.gz'])(
      'imports every file of a %s, tagged with its entry name',
      async (format) => {
        const response = await app
          .post('test-lines', { scope: 'r1' })
          .set('Content-Type', 'application/octet-stream')
          .send(await buildArchive(format, documents));
        expect(response.status).toBe(201);
        expect(response.body.created_keys).toEqual({ 'a.xml': ['r1-ar1'], 'dir/b.xml': ['r1-ar2'] });
      },
    );

    it('treats an entry name with ../ as a name, never as a path', async () => {
      const zip = renameZipEntries(await buildArchive('zip', { 'xx/evil.xml': 'ev1 Evil\n' }), {
        'xx/evil.xml': '../evil.xml',
      });
      const response = await app.post('test-lines', { scope: 'r1', commit: 'true' }).send(zip);
      expect(response.status).toBe(201);
      expect(response.body.created_keys).toEqual({ '../evil.xml': ['r1-ev1'] });
      expect(existsSync(path.join(tmpdir(), 'evil.xml'))).toBe(false);
      expect(existsSync(path.resolve('..', 'evil.xml'))).toBe(false);
    });

    it('commits nothing of an archive with one broken file', async () => {
      const zip = await buildArchive('zip', {
        'good.xml': 'br1 Fine\n',
        'bad.xml': 'br2 Fine\n!fail here\n',
      });
      const response = await app.post('test-lines', { scope: 'r1', commit: 'true' }).send(zip);
      expect(response.status).toBe(400);
      expect(response.body.details).toMatchObject({ tag: 'bad.xml', line: 2 });
      expect(await ids(['r1-br1', 'r1-br2'])).toEqual([]);
    });

    it("skips folders and macOS Finder's additions", async () => {
      const zip = await buildArchive('zip', {
        'mac.xml': 'mac1 Real\n',
        '__MACOSX/._mac.xml': '!fail resource fork\n',
        '.DS_Store': '!fail finder\n',
      });
      const response = await app.post('test-lines', { scope: 'r1' }).send(zip);
      expect(response.status).toBe(201);
      expect(response.body.created_keys).toEqual({ 'mac.xml': ['r1-mac1'] });
    });

    it('refuses an archive without documents and a body that is no archive', async () => {
      const empty = await app.post('test-lines', { scope: 'r1' }).send(await buildArchive('zip', {}));
      expect(empty.status).toBe(400);
      expect(empty.body.details).toBe('The archive contains no documents');

      const garbage = await app
        .post('test-lines', { scope: 'r1' })
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.from('neither zip nor tar'));
      expect(garbage.status).toBe(400);
      expect(garbage.body.details).toContain('not a zip, tar or tar.gz archive');
    });
  });

  describe('URL maps (application/json)', () => {
    it('refuses loopback addresses unless configured, and other schemes', async () => {
      for (const url of [
        'http://127.0.0.1:9/doc.xml',
        'http://localhost:9/doc.xml',
        'http://[::1]:9/doc.xml',
      ]) {
        const response = await app.post('test-lines', { scope: 'r1' }).send({ 'doc.xml': url });
        expect(response.status).toBe(400);
        expect(response.body.details).toContain('URL refused');
      }
      const ftp = await app
        .post('test-lines', { scope: 'r1' })
        .send({ 'doc.xml': 'ftp://example.org/doc.xml' });
      expect(ftp.status).toBe(400);
      expect(ftp.body.details).toContain('Only http and https');
    });

    it('refuses a map that is not an object of strings', async () => {
      for (const body of [['http://example.org/'], { a: 1 }, {}]) {
        const response = await app.post('test-lines', { scope: 'r1' }).send(body);
        expect(response.status).toBe(400);
      }
    });

    it('reads a map larger than the HTTP layer would buffer (1 MiB): the import run reads every body', async () => {
      const padded = `{${' '.repeat(2 * 1024 * 1024)}"doc.xml": "http://127.0.0.1:9/doc.xml"}`;
      const response = await app
        .post('test-lines', { scope: 'r1' })
        .set('Content-Type', 'application/json')
        .send(padded);
      expect(response.status).toBe(400);
      expect(response.body.details).toContain('URL refused');
    });
  });
});

describe('POST /import/:format — URL maps with private addresses allowed', () => {
  let app: ImportTestApp;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    app = await createImportTestApp({ IMPORT_ALLOW_PRIVATE_URLS: 'true', IMPORT_MAX_URL_BYTES: '2000' });
    server = createServer((request, response) => {
      if (request.url === '/one.xml') return response.end('url1 One\n');
      if (request.url === '/two.xml') return response.end('url2 Two\n');
      if (request.url === '/moved') return response.writeHead(302, { location: '/two.xml' }).end();
      if (request.url === '/loop') return response.writeHead(302, { location: '/loop' }).end();
      if (request.url === '/huge') return response.end('x'.repeat(5000));
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  });

  it('fetches every URL, following redirects, tagged with its name', async () => {
    const response = await app
      .post('test-lines', { scope: 'r1', commit: 'true' })
      .send({ 'first.xml': `${base}/one.xml`, 'second.xml': `${base}/moved` });
    expect(response.status).toBe(201);
    expect(response.body.created_keys).toEqual({ 'first.xml': ['r1-url1'], 'second.xml': ['r1-url2'] });
  });

  it.each([
    ['an error status', '/missing', '404'],
    ['a redirect loop', '/loop', 'redirects'],
    ['a document over IMPORT_MAX_URL_BYTES', '/huge', 'larger than the limit'],
  ])('answers 400 to %s, importing nothing', async (_, route, message) => {
    const response = await app
      .post('test-lines', { scope: 'r1', commit: 'true' })
      .send({ 'ok.xml': `${base}/one.xml`, 'bad.xml': `${base}${route}` });
    expect(response.status).toBe(400);
    expect(response.body.details).toContain(message);
  });

  it('reads a properties mapping from an allowed URL', async () => {
    const response = await app
      .post('test-lines', { scope: 'r1', commit: 'true', properties: `${base}/two.xml` })
      .set('Content-Type', 'application/xml')
      .send('prop1 Mapped');
    expect(response.status).toBe(201);
    expect((await app.items(['r1-prop1'])).get('r1-prop1')?.data.mapping).toBe('url2 Two\n');
  });
});

describe('POST /import/:format — archive limits', () => {
  let app: ImportTestApp;

  beforeAll(async () => {
    app = await createImportTestApp({ IMPORT_MAX_ARCHIVE_ENTRIES: '3', IMPORT_MAX_ARCHIVE_BYTES: '100000' });
  });
  afterAll(() => app.close());

  const manyEntries = Object.fromEntries(
    Array.from({ length: 5 }, (_, index) => [`e${index}.xml`, `many${index} X\n`]),
  );
  // Zeros compress about a thousandfold: a small body that unpacks far beyond the limit.
  const bomb = { 'bomb.xml': Buffer.alloc(4 * 1024 * 1024) };

  it.each<ArchiveFormat>(['zip', 'tar', 'tar.gz'])('refuses a %s with too many entries', async (format) => {
    const response = await app
      .post('test-lines', { scope: 'r1', commit: 'true' })
      .send(await buildArchive(format, manyEntries));
    expect(response.status).toBe(413);
    expect(response.body.details).toContain('IMPORT_MAX_ARCHIVE_ENTRIES');
    expect((await app.items(['r1-many0'])).size).toBe(0);
  });

  it.each<ArchiveFormat>(['zip', 'tar.gz'])(
    'refuses a %s that unpacks beyond the byte limit',
    async (format) => {
      const archive = await buildArchive(format, bomb);
      expect(archive.length).toBeLessThan(100000);
      const response = await app.post('test-lines', { scope: 'r1' }).send(archive);
      expect(response.status).toBe(413);
      expect(response.body.details).toContain('IMPORT_MAX_ARCHIVE_BYTES');
    },
  );
});

import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { describeUnlessNeo4j } from './support/test-store';

/** The app's structured log lines, as pino writes them. */
const logLines: string[] = [];
const logDestination = { write: (line: string) => void logLines.push(line) };

/**
 * `log` and `properties` never read the service's own files, even where IMPORT_ROOTS holds them:
 * here the roots are the whole temp folder, which holds the store's data folder too.
 */
describeUnlessNeo4j('a Neo4j store keeps no files in a data folder of the service')(
  "import parameters naming the service's own files",
  () => {
    let app: ImportTestApp;
    let dataDir: string;

    beforeAll(async () => {
      app = await createImportTestApp({ IMPORT_ROOTS: tmpdir(), LOG_LEVEL: 'warn' }, { logDestination });
      dataDir = app.dataDir;
    });
    afterAll(() => app.close());

    const dryRun = (query: Record<string, string>) =>
      app
        .post('test-lines', { scope: 'r1', ...query })
        .set('Content-Type', 'application/xml')
        .send('o1 X');

    it('warns once at start that IMPORT_ROOTS overlaps the data folder and the temp folder', () => {
      const warnings = logLines
        .map((line) => JSON.parse(line) as { msg: string })
        .filter((line) => line.msg.startsWith('IMPORT_ROOTS overlaps'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0].msg).toContain(`overlaps the data folder ${dataDir}`);
      expect(warnings[0].msg).toContain(`overlaps the temp folder ${tmpdir()}`);
    });

    it.each(['archive.db', 'archive.db-wal', 'archive.db-shm', 'archive.tokens.db'])(
      'refuses log=<data folder>/%s with 400 naming the parameter and why',
      async (name) => {
        const response = await dryRun({ log: path.join(dataDir, name) });
        expect(response.status).toBe(400);
        expect(response.body.details).toBe(
          'Parameter "log" names a file the service never reads: ' +
            "it lies in the service's data folder (the store and its files)",
        );
        expect(JSON.stringify(response.body)).not.toContain('SQLite format');
      },
    );

    it('refuses properties= naming a file of the data folder', async () => {
      const response = await app
        .post('csv', { scope: 'r1', properties: path.join(dataDir, 'archive.db') })
        .set('Content-Type', 'text/csv')
        .send('identifier\nx1\n');
      expect(response.status).toBe(400);
      expect(response.body.details).toMatch(/^Parameter "properties" names a file the service never reads/);
    });

    it('still reads a log message from a file of the roots that is not the service’s', async () => {
      const file = path.join(app.root, 'message.txt');
      await writeFile(file, 'from a file');
      const response = await dryRun({ log: file });
      expect(response.status).toBe(201);
      expect(response.body.message).toBe('from a file');
    });
  },
);

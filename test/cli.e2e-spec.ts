import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import request from 'supertest';
import path from 'node:path';
import { promisify } from 'node:util';
import { TokensService } from '../src/auth/tokens.service';
import { UsersService } from '../src/auth/users.service';
import { Bundle } from '../src/items/bundle';
import { itemHash } from '../src/items/change-detection';
import { ImportLogService } from '../src/import-logs/import-log.service';
import { ehriFixture } from './support/ehri-fixtures';
import { FROM_SOURCE } from './support/service-process';
import { TestApp, createTestApp } from './support/test-app';

const run = promisify(execFile);

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('command line (archive-cli), against the store of a running app', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  /**
   * Runs the CLI from the project folder, from source (`npm run cli` runs it compiled, the same
   * code), on the test app's SQLite file; stdout and stderr are pipes, as in a script.
   */
  async function cliWith(extraEnv: Record<string, string>, ...args: string[]): Promise<CliResult> {
    const env = { ...process.env, ...testApp.graphEnv, ...extraEnv };
    try {
      const { stdout, stderr } = await run(process.execPath, [...FROM_SOURCE, 'src/cli.ts', ...args], {
        env,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  const cli = (...args: string[]) => cliWith({}, ...args);

  function lastLine(output: string): string {
    return output.trimEnd().split('\n').at(-1) ?? '';
  }

  async function stored(id: string) {
    return (await testApp.store.read((tx) => tx.getItems([id]))).get(id);
  }

  it('documents every command in --help, once', async () => {
    const { code, stdout } = await cli('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: archive-cli <command> \[options\]/);
    expect(stdout).toContain('npx archive-cli <command>');
    // Commander's own list of commands, which would name each a second time, is left out.
    expect(stdout).not.toMatch(/^Commands:$/m);
    expect(stdout.match(/^ {2}token create /gm)).toHaveLength(1);
    for (const command of [
      'user add <id> [--name <name>]',
      'token create --role <portal|import|ops> [--user <id>] [--name <label>]',
      'token list',
      'token revoke <token-id>',
      'vocabulary add <id> [--name <name>]',
      'authority-set add <id> [--name <name>]',
    ]) {
      expect(stdout).toContain(command);
    }
  });

  it('adds a user, answering JSON on stdout, and refuses the same id twice', async () => {
    const added = await cli('user', 'add', 'mike', '--name', 'Mike Bryant');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ id: 'mike', name: 'Mike Bryant' });
    await expect(testApp.app.get(UsersService).exists('mike')).resolves.toBe(true);
    expect((await stored('mike'))?.bundle.data.name).toBe('Mike Bryant');

    const again = await cli('user', 'add', 'mike');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('already exists');
    // Runs of the command line one after the other, each a process opening the store.
  }, 120_000);

  it('creates a token shown once in its JSON, lists it without secret, revokes it', async () => {
    const tokens = testApp.app.get(TokensService);
    const created = await cli('token', 'create', '--role', 'import', '--user', 'mike', '--name', 'ci');
    expect(created.code).toBe(0);
    const { token, id } = JSON.parse(created.stdout) as { token: string; id: string };
    expect(JSON.parse(created.stdout)).toEqual({ id, role: 'import', user: 'mike', name: 'ci', token });
    expect(created.stderr).toContain(
      `Created import token ${id}; the token, in the JSON on stdout, is shown only now`,
    );
    const grant = await tokens.verify(token);
    expect(grant).toEqual({ id, role: 'import', user: 'mike' });

    const listed = await cli('token', 'list');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toContainEqual(
      expect.objectContaining({ id, role: 'import', user: 'mike', name: 'ci', revoked: false }),
    );
    expect(listed.stdout).not.toContain(token);

    const revoked = await cli('token', 'revoke', id);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ id, revoked: true });
    await expect(tokens.verify(token)).resolves.toBeUndefined();
    expect(JSON.parse((await cli('token', 'list')).stdout)).toContainEqual(
      expect.objectContaining({ id, revoked: true }),
    );
    // Runs of the command line one after the other, each a process opening the store.
  }, 120_000);

  it('adds a vocabulary and an authority set', async () => {
    expect((await cli('vocabulary', 'add', 'ehri_terms', '--name', 'EHRI Terms')).code).toBe(0);
    expect((await cli('authority-set', 'add', 'ehri_cb')).code).toBe(0);

    expect((await stored('ehri_terms'))?.bundle).toMatchObject({
      type: 'CvocVocabulary',
      data: { identifier: 'ehri_terms', name: 'EHRI Terms' },
    });
    expect((await stored('ehri_cb'))?.bundle).toMatchObject({
      type: 'AuthoritativeSet',
      data: { identifier: 'ehri_cb', name: 'ehri_cb' },
    });
    // Runs of the command line one after the other, each a process opening the store.
  }, 120_000);

  it('exits non-zero with a clear message on bad input, creating nothing', async () => {
    const tokens = testApp.app.get(TokensService);
    const tokensBefore = await tokens.list();
    const [badRole, noRole, unknownUser, unknownToken, unknownCommand] = await Promise.all([
      cli('token', 'create', '--role', 'admin'),
      cli('token', 'create'),
      cli('token', 'create', '--role', 'portal', '--user', 'nobody'),
      cli('token', 'revoke', 'no-such-token'),
      cli('group', 'add', 'x'),
    ]);
    expect(badRole).toMatchObject({ code: 1, stderr: expect.stringContaining("'admin' is invalid") });
    expect(noRole).toMatchObject({ code: 1, stderr: expect.stringContaining('--role') });
    expect(unknownUser).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown user "nobody"') });
    expect(unknownToken).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown token id') });
    expect(unknownCommand).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("unknown command 'group'"),
    });
    expect(await tokens.list()).toEqual(tokensBefore);
    // Five runs of the command line at once.
  }, 120_000);

  it("says in its own words what is wrong with the settings and with an import's user", async () => {
    const [badSettings, noImportUser, unknownImportUser] = await Promise.all([
      cliWith({ LOG_LEVEL: 'verbose', PORT: 'abc' }, 'token', 'list'),
      cli('import', 'ead', 'package.json', '--scope', 'cr'),
      cli('import', 'ead', 'package.json', '--scope', 'cr', '--user', 'ghost'),
    ]);
    expect(badSettings).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('error: 2 settings are not allowed:\n  PORT="abc": must be an integer'),
    });
    expect(badSettings.stderr).not.toMatch(/^\s+at /m);
    expect(noImportUser).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(
        'error: import needs --user <id>: the user the import is recorded under',
      ),
    });
    expect(unknownImportUser).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(
        'error: unknown user "ghost": make it first with npx archive-cli user add ghost',
      ),
    });
  }, 120_000);

  it('imports local files as a job, with progress, the log as JSON and the stored log', async () => {
    await testApp.app.get(UsersService).add('ingest');
    const repository: Bundle = { id: 'cr', type: 'Repository', data: { identifier: 'cr' }, relations: {} };
    await testApp.store.write((tx) => tx.putItems([{ bundle: repository, hash: itemHash(repository) }]));
    const [file, other] = [ehriFixture('hierarchical-ead.xml'), ehriFixture('single-ead.xml')];
    const folder = await mkdtemp(path.join(tmpdir(), 'cli-import-'));
    await writeFile(path.join(folder, 'a.xml'), file);
    await writeFile(path.join(folder, 'b.xml'), other);
    try {
      const imported = await cli('import', 'ead', folder, '--scope', 'cr', '--user', 'ingest', '--commit');
      expect(imported.code).toBe(0);
      const log = JSON.parse(imported.stdout);
      expect(log).toMatchObject({
        created: 6,
        updated: 0,
        unchanged: 0,
        errors: {},
        event: expect.any(String),
      });
      expect(Object.keys(log.created_keys)).toEqual([path.join(folder, 'a.xml'), path.join(folder, 'b.xml')]);
      // Not a terminal: plain progress lines, the last one the outcome.
      expect(lastLine(imported.stderr)).toMatch(
        /^6 items: 6 created, 0 updated, 0 unchanged \| committed \| 7\.\d kB\/7\.\d kB \| \d+ items\/s$/,
      );
      expect(imported.stderr.split('\n')[0]).toBe('Importing 2 files (ead)…');
      expect((await stored('cr-c00001'))?.bundle.type).toBe('DocumentaryUnit');
      const record = await testApp.app.get(ImportLogService).get(log.event);
      expect(record).toMatchObject({ user: 'ingest', endpoint: 'ead', outcome: 'succeeded', log });
      // Its job, as the running app lists it from the store.
      const opsToken = await testApp.token('ops');
      const jobs = await request(testApp.server)
        .get('/import/jobs')
        .query({ user: 'ingest' })
        .set('Authorization', `Bearer ${opsToken}`);
      expect(jobs.body.items).toEqual([
        expect.objectContaining({ state: 'committed', endpoint: 'ead', event: log.event, scope: 'cr' }),
      ]);

      const again = await cli(
        'import',
        'ead',
        path.join(folder, 'a.xml'),
        '--scope',
        'cr',
        '--user',
        'ingest',
      );
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, unchanged: 5, event: null });
      expect(Object.keys(JSON.parse(again.stdout).unchanged_keys)).toEqual(['a.xml']);

      const failed = await cli(
        'import',
        'ead',
        path.join(folder, 'a.xml'),
        '--scope',
        'nowhere',
        '--user',
        'ingest',
      );
      expect(failed.code).not.toBe(0);
      expect(failed.stderr).toContain('error: the import failed (404 Not Found): Scope not found: nowhere\n');
      expect(JSON.parse(lastLine(failed.stderr))).toMatchObject({
        status: 404,
        details: 'Scope not found: nowhere',
      });
      expect(failed.stdout).toBe('');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    // Three runs of the command line from source, each opening the store and the formats.
  }, 240_000);
});

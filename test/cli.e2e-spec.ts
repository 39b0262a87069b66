import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TokensService } from '../src/auth/tokens.service';
import { UsersService } from '../src/auth/users.service';
import { TestApp, createTestApp } from './support/test-app';

const run = promisify(execFile);

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('command line (npm run cli), against the store of a running app', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Runs the CLI as `npm run cli` does (from the project folder), on the test app's SQLite file. */
  async function cli(...args: string[]): Promise<CliResult> {
    const env = { ...process.env, ...testApp.graphEnv };
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', 'src/cli.ts', ...args],
        { env },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  function lastLine(output: string): string {
    return output.trimEnd().split('\n').at(-1) ?? '';
  }

  async function stored(id: string) {
    return (await testApp.store.read((tx) => tx.getItems([id]))).get(id);
  }

  it('documents every command in --help', async () => {
    const { code, stdout } = await cli('--help');
    expect(code).toBe(0);
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

  it('adds a user, and refuses the same id twice', async () => {
    const added = await cli('user', 'add', 'mike', '--name', 'Mike Bryant');
    expect(added.code).toBe(0);
    await expect(testApp.app.get(UsersService).exists('mike')).resolves.toBe(true);
    expect((await stored('mike'))?.bundle.data.name).toBe('Mike Bryant');

    const again = await cli('user', 'add', 'mike');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('already exists');
  });

  it('creates a token printed alone on the last line, lists it without secret, revokes it', async () => {
    const tokens = testApp.app.get(TokensService);
    const created = await cli('token', 'create', '--role', 'import', '--user', 'mike', '--name', 'ci');
    expect(created.code).toBe(0);
    const token = lastLine(created.stdout);
    const grant = await tokens.verify(token);
    expect(grant).toEqual({ id: expect.any(String), role: 'import', user: 'mike' });

    const listed = await cli('token', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(grant!.id);
    expect(listed.stdout).not.toContain(token);

    const revoked = await cli('token', 'revoke', grant!.id);
    expect(revoked.code).toBe(0);
    await expect(tokens.verify(token)).resolves.toBeUndefined();
    expect((await cli('token', 'list')).stdout).toMatch(new RegExp(`^${grant!.id}\\t.*\\trevoked$`, 'm'));
  });

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
  });

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
  });
});

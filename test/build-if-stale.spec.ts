import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '..', 'scripts', 'build-if-stale.mjs');

/**
 * `scripts/build-if-stale.mjs`, run as `npm start` and `npm run cli` run it, in a project of its
 * own whose build counts its runs (and stamps dist/ as the real build does).
 */
describe('build-if-stale: npm start and npm run cli build only when dist/ is older than its sources', () => {
  let project: string;

  beforeEach(async () => {
    project = await mkdtemp(path.join(tmpdir(), 'build-if-stale-'));
    await mkdir(path.join(project, 'src', 'deep'), { recursive: true });
    await writeFile(path.join(project, 'src', 'deep', 'a.ts'), 'export {};\n');
    await writeFile(path.join(project, 'tsconfig.json'), '{}\n');
    const build = `node -e "require('fs').appendFileSync('builds', 'x')" && node ${JSON.stringify(SCRIPT)} --stamp`;
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'p', scripts: { build } }));
  });
  afterEach(() => rm(project, { recursive: true, force: true }));

  async function buildIfStale(): Promise<{ stdout: string; stderr: string }> {
    // As by hand: the npm on PATH (under npm, its own).
    const env = { ...process.env, npm_execpath: '' };
    return run(process.execPath, [SCRIPT], { cwd: project, env });
  }

  const builds = async () => (await readFile(path.join(project, 'builds'), 'utf8').catch(() => '')).length;

  it('builds when dist/ was never built, then not again until a source changes', async () => {
    const first = await buildIfStale();
    expect(await builds()).toBe(1);
    expect(first.stderr).toContain('Building the service: dist/ has not been built');
    expect(first.stdout).toBe('');

    const second = await buildIfStale();
    expect(await builds()).toBe(1);
    expect(second.stderr).toBe('');

    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(project, 'src', 'deep', 'a.ts'), later, later);
    const third = await buildIfStale();
    expect(await builds()).toBe(2);
    expect(third.stderr).toContain(`${path.join('src', 'deep', 'a.ts')} changed since the last build`);
  });

  it('ignores unit tests, which are not built, and watches the TypeScript settings', async () => {
    await buildIfStale();
    const later = new Date(Date.now() + 60_000);
    await writeFile(path.join(project, 'src', 'deep', 'a.spec.ts'), 'export {};\n');
    await utimes(path.join(project, 'src', 'deep', 'a.spec.ts'), later, later);
    await buildIfStale();
    expect(await builds()).toBe(1);

    await utimes(path.join(project, 'tsconfig.json'), later, later);
    await buildIfStale();
    expect(await builds()).toBe(2);
  });

  it('fails, saying so, when the build fails', async () => {
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'p', scripts: { build: 'exit 3' } }),
    );
    await expect(buildIfStale()).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('The build failed (exit code 3): nothing was started'),
    });
  });
});

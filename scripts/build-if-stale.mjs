// Builds the service (`npm run build`) only when dist/ is older than what it is built from, so that
// `npm start` and `npm run cli` start at once on an unchanged checkout. `--stamp`, run by the build
// itself when it succeeds, marks dist/ as up to date. Everything it says goes to stderr: the CLI's
// stdout carries only the command's own output.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const project = process.cwd();
const stamp = path.join(project, 'dist', '.build-stamp');
/** What the build reads besides src/. */
const BUILD_FILES = ['tsconfig.json', 'tsconfig.build.json', 'scripts/copy-console-assets.mjs'];

/** The newest file dist/ is built from, with its modification time. */
function newestInput() {
  const files = BUILD_FILES.map((file) => path.join(project, file)).filter((file) => existsSync(file));
  for (const entry of readdirSync(path.join(project, 'src'), { recursive: true, withFileTypes: true })) {
    // Unit tests are not built.
    if (entry.isFile() && !entry.name.endsWith('.spec.ts'))
      files.push(path.join(entry.parentPath, entry.name));
  }
  let newest = { file: '', mtimeMs: 0 };
  for (const file of files) {
    const { mtimeMs } = statSync(file);
    if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

/** Why dist/ must be built again, or undefined when it is up to date. */
function staleness() {
  if (!existsSync(stamp)) return 'dist/ has not been built';
  const built = statSync(stamp).mtimeMs;
  const newest = newestInput();
  return newest.mtimeMs > built
    ? `${path.relative(project, newest.file)} changed since the last build`
    : undefined;
}

if (process.argv.includes('--stamp')) {
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
} else {
  const reason = staleness();
  if (reason !== undefined) {
    process.stderr.write(`Building the service: ${reason}\n`);
    const npm = process.env.npm_execpath;
    // Under npm, the same npm (its execpath) on this Node; run by hand, the npm on PATH.
    const [command, args] = npm
      ? [process.execPath, [npm, 'run', '-s', 'build']]
      : ['npm', ['run', '-s', 'build']];
    const build = spawnSync(command, args, { stdio: ['ignore', 2, 2] });
    if (build.status !== 0) {
      process.stderr.write(
        `The build failed (exit code ${build.status ?? build.signal}): nothing was started\n`,
      );
      process.exit(1);
    }
  }
}

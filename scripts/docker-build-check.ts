import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `npm run docker:check`: proves, without a container engine, that `docker/Dockerfile`'s build
 * context is complete. It replays the build stage in a scratch folder that holds only what the
 * stage's COPY lines bring from the context (less `.dockerignore`), running its RUN lines there on
 * the project's Node 24; then it lays out what the runtime stage copies from the build stage and
 * starts the service from that alone, until `/health/ready` answers.
 */
const PROJECT = path.resolve(__dirname, '..');

export interface Instruction {
  keyword: string;
  args: string;
}

/** The instructions of each stage of a Dockerfile, continuation lines joined, comments dropped. */
export function parseStages(dockerfile: string): Instruction[][] {
  const joined = dockerfile.replace(/\\\r?\n/g, ' ');
  const stages: Instruction[][] = [];
  for (const line of joined.split(/\r?\n/).map((text) => text.trim())) {
    if (!line || line.startsWith('#')) continue;
    const [keyword, ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

/** Whether `relative` (a path in the context, with `/`) is left out by one of `.dockerignore`'s patterns. */
export function ignored(relative: string, patterns: string[]): boolean {
  const parts = relative.split('/');
  return patterns.some((pattern) => {
    const regex = new RegExp(
      '^' +
        pattern
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]') +
        '$',
    );
    // A pattern that names a folder leaves out everything under it.
    return parts.some((_, index) => regex.test(parts.slice(0, index + 1).join('/')));
  });
}

function dockerignore(): string[] {
  const file = path.join(PROJECT, '.dockerignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/^\/+|\/+$/g, ''))
    .filter((line) => line && !line.startsWith('#'));
}

/** `COPY a b ./dest` as sources and destination; flags such as `--chown` dropped. */
function copyArgs(args: string): { from?: string; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((word) => !word.startsWith('--'));
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1) as string };
}

function replayBuildStage(stage: Instruction[], root: string): string {
  const ignores = dockerignore();
  let workdir = '/';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // The image's Node 24 is the project's own here: the folder of the Node running this script.
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
  };
  for (const { keyword, args } of stage) {
    const cwd = path.join(root, workdir);
    if (keyword === 'WORKDIR') workdir = path.posix.resolve(workdir, args);
    if (keyword === 'WORKDIR') mkdirSync(path.join(root, workdir), { recursive: true });
    if (keyword === 'COPY') {
      const { sources, dest } = copyArgs(args);
      for (const source of sources) {
        const from = path.join(PROJECT, source);
        if (!existsSync(from) || ignored(source, ignores)) {
          throw new Error(`COPY ${source}: not in the build context (missing or in .dockerignore)`);
        }
        const to = dest.endsWith('/') ? path.join(cwd, dest, path.basename(source)) : path.join(cwd, dest);
        cpSync(from, to, {
          recursive: true,
          filter: (file) => !ignored(path.relative(PROJECT, file).split(path.sep).join('/'), ignores),
        });
      }
    }
    if (keyword === 'RUN') {
      console.log(`docker:check: RUN ${args}`);
      execFileSync('sh', ['-c', args], { cwd, env, stdio: 'inherit' });
    }
  }
  return path.join(root, workdir);
}

function layOutRuntime(stage: Instruction[], built: string, app: string): void {
  for (const { keyword, args } of stage) {
    if (keyword !== 'COPY') continue;
    const { from, sources, dest } = copyArgs(args);
    if (from !== 'build') throw new Error(`The runtime stage copies from the context: COPY ${args}`);
    for (const source of sources) {
      const inBuild = path.join(built, path.relative('/app', source));
      if (!existsSync(inBuild))
        throw new Error(`COPY --from=build ${source}: the build stage made no such thing`);
      const target = path.join(app, path.relative('/app', path.posix.resolve('/app', dest)));
      cpSync(inBuild, dest.endsWith('/') ? path.join(target, path.basename(source)) : target, {
        recursive: true,
      });
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startsAndIsReady(app: string): Promise<void> {
  const port = await freePort();
  const service = spawn(process.execPath, ['dist/main.js'], {
    cwd: app,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      GRAPH_URL: 'sqlite:./data/archive.db',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let tries = 0; tries < 120; tries++) {
      if (service.exitCode !== null) throw new Error(`the service ended with exit code ${service.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the service did not become ready within 60 s');
  } finally {
    service.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const stages = parseStages(readFileSync(path.join(PROJECT, 'docker', 'Dockerfile'), 'utf8'));
  if (stages.length !== 2) throw new Error(`expected a build and a runtime stage, found ${stages.length}`);
  const scratch = mkdtempSync(path.join(tmpdir(), 'docker-check-'));
  try {
    const built = replayBuildStage(stages[0], path.join(scratch, 'build'));
    const app = path.join(scratch, 'runtime');
    layOutRuntime(stages[1], built, app);
    await startsAndIsReady(app);
    console.log('docker:check: the build stage ran on its context alone, and its output starts and is ready');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`docker:check failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}

import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Benchmarks measure the service as production runs it: JavaScript, not TypeScript under ts-node,
 * which keeps the compiler in memory and loads `node:domain`, slowing every event emitted.
 */

export const ROOT = path.resolve(__dirname, '..', '..');
export const OUT = path.join(ROOT, 'bench', 'out');

async function typescriptFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Where `file`, a TypeScript file of the project, lands when transpiled under `target`. */
export function transpiledPath(target: string, file: string): string {
  return path.join(target, path.relative(ROOT, file)).replace(/\.ts$/, '.js');
}

/**
 * Transpiles the sources, the benchmarks' support and `files` (a benchmark and what else it
 * imports) to CommonJS under `target`, keeping the layout, so that relative imports still resolve.
 */
export async function transpile(target: string, files: readonly string[]): Promise<void> {
  const { default: ts } = await import('typescript');
  const shared = [
    ...(await typescriptFiles(path.join(ROOT, 'src'))),
    ...(await typescriptFiles(path.join(ROOT, 'bench', 'support'))),
  ];
  for (const file of [...shared, ...files]) {
    const output = ts.transpileModule(await readFile(file, 'utf8'), {
      fileName: file,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
      },
    });
    const destination = transpiledPath(target, file);
    await mkdir(path.dirname(destination), { recursive: true });
    await writeFile(destination, output.outputText);
  }
}

/**
 * Runs `script` (a benchmark whose `main` prints one JSON object) transpiled with `files` into
 * `bench/out/js-<pid>`, per process because benchmarks may run side by side, and returns its
 * JSON. The child's progress goes to this process's stderr.
 */
export async function runTranspiled(script: string, files: readonly string[]): Promise<object> {
  const target = path.join(OUT, `js-${process.pid}`);
  try {
    await transpile(target, [script, ...files]);
    const run = spawnSync(process.execPath, [transpiledPath(target, script)], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`${path.basename(script)} exited with ${run.status ?? run.signal}`);
    return JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as object;
  } finally {
    await rm(target, { recursive: true, force: true });
  }
}

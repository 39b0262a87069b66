/**
 * `npm run bench [-- <name> …]`: runs the benchmarks, each in a child process of its own so that
 * one's memory and warm caches do not colour another's figures, and prints one JSON object:
 * `{ "<name>": <the benchmark's JSON>, … }`. A benchmark is `bench/<name>.ts` printing one JSON
 * object as the last line of its output. Benchmarks compile the sources with SWC
 * (`scripts/swc-register.js`), not with the TypeScript compiler ts-node runs, whose time and memory
 * would count in their figures; the service processes they start inherit it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const BENCHMARKS = [
  'ead-import',
  'service-import',
  'portal-search',
  'skos-import',
  'csv-import',
  'mixed',
  'exports',
];
/** Run only when named: `stores` starts a Neo4j server of its own and takes long. */
const NAMED_ONLY = ['stores'];

function runBenchmark(name: string): unknown {
  const file = path.join(__dirname, `${name}.ts`);
  const child = spawnSync(
    process.execPath,
    ['-r', path.join(__dirname, '..', 'scripts', 'swc-register.js'), file],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (child.status !== 0) {
    return { error: `exited with ${child.status ?? child.signal}` };
  }
  const lastLine = child.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(lastLine);
}

function main(): void {
  const requested = process.argv.slice(2);
  const unknown = requested.filter((name) => !BENCHMARKS.includes(name) && !NAMED_ONLY.includes(name));
  if (unknown.length > 0) {
    const known = [...BENCHMARKS, ...NAMED_ONLY].join(', ');
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${known}`);
    process.exit(2);
  }
  const results: Record<string, unknown> = {};
  for (const name of requested.length > 0 ? requested : BENCHMARKS) {
    results[name] = runBenchmark(name);
  }
  console.log(JSON.stringify(results, null, 2));
}

main();

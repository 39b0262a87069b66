/**
 * The service's own time and memory through one large EAD commit: starts the service (`src/main.ts`,
 * its default settings: imports in the import worker thread) on a fresh store, commits a small
 * finding aid first (the import worker starts, as in a service that has imported before), then the
 * generated one of `BENCH_UNITS` lean units (default 100,000; a million takes six levels), streamed
 * over HTTP. Prints the commit's time and the service process's peak resident set (Linux's `VmHWM`)
 * before and after it. The benchmark's own app, which made the store and its tokens, is another
 * process.
 *
 * `npm run bench -- service-import`; `BENCH_UNITS=1000000` for a million units.
 */
import { createReadStream } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { spawnService, untilHealthy } from '../test/support/service-process';
import { depthToHold, generatedEad } from './ead-generator';
import { runWhenMain, startBenchApp } from './support/bench-app';
import { ROOT } from './support/bench-paths';
import { addRepository } from './support/bench-store';

const UNITS = Number(process.env.BENCH_UNITS ?? 100_000);

/** Commits `file` into `repository`, streamed; the seconds it took, end to end. */
function commit(port: number, token: string, repository: string, file: { file: string; bytes: number }) {
  const started = performance.now();
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/import/ead?scope=${repository}&commit=true&tag=${path.basename(file.file)}`,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/xml',
          'Content-Length': String(file.bytes),
        },
      },
      (response) => {
        let body = '';
        // The answer lists every id: only its start is kept, for an error.
        response.on('data', (chunk: Buffer) => {
          if (body.length < 500) body += chunk.toString('utf8');
        });
        response.on('end', () =>
          response.statusCode === 201
            ? resolve(Math.round(performance.now() - started) / 1000)
            : reject(new Error(`import answered ${response.statusCode}: ${body.slice(0, 500)}`)),
        );
      },
    );
    request.on('error', reject);
    createReadStream(file.file).pipe(request);
  });
}

export async function main(): Promise<object> {
  const shape = { units: UNITS, fanOut: 10, depth: depthToHold(UNITS, 10, 5), unitSize: 'lean' as const };
  const document = await generatedEad(shape);
  const small = await generatedEad({ units: 100, fanOut: 10, depth: 2, unitSize: 'lean' });
  const bench = await startBenchApp('service-import');
  // Each document into a repository of its own: they share their units' identifiers.
  for (const repository of ['warmup', 'measured']) await addRepository(bench.store, repository);
  const token = await bench.token('import');
  const service = await spawnService([...process.execArgv, path.join(ROOT, 'src', 'main.ts')], {
    ...bench.graphEnv,
    LOG_LEVEL: 'silent',
    // A million lean units are past the default body limit; the small document is within it.
    IMPORT_MAX_BODY_BYTES: String(document.bytes),
  });
  try {
    await untilHealthy(service);
    await commit(service.port, token, 'warmup', small);
    const peakBeforeMb = service.peakRssMb();
    const seconds = await commit(service.port, token, 'measured', document);
    return {
      document: { ...shape, bytes: document.bytes },
      loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
      commitSeconds: seconds,
      peakRssMbBeforeCommit: peakBeforeMb,
      peakRssMb: service.peakRssMb(),
      target: 'peakRssMb < 300',
    };
  } finally {
    await service.stop();
    await bench.close();
  }
}

runWhenMain(module, main);

/**
 * A load generator for benchmarks, run as a child process (`fork`) so that its work neither
 * queues behind the server's on one event loop nor counts in the server's CPU time. It receives
 * a `ReplayJob`, replays its paths from `clients` keep-alive connections (each client sends its
 * next request when the previous one is answered) and sends back a `ReplayResult`.
 */
import { fork } from 'node:child_process';
import http from 'node:http';

export interface ReplayJob {
  port: number;
  headers: Record<string, string>;
  paths: string[];
  clients: number;
}

export interface ReplayResult {
  latenciesMs: number[];
  /** `meta.total` of each JSON answer that has one. */
  totals: number[];
  errors: number;
  wallMs: number;
}

interface Answer {
  status: number;
  total?: number;
}

function metaTotal(body: Buffer): number | undefined {
  try {
    const total = (JSON.parse(body.toString('utf8')) as { meta?: { total?: unknown } }).meta?.total;
    return typeof total === 'number' ? total : undefined;
  } catch {
    return undefined;
  }
}

function get(agent: http.Agent, job: ReplayJob, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: job.port, path, agent, headers: job.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, total: metaTotal(Buffer.concat(chunks)) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function replay(job: ReplayJob): Promise<ReplayResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.clients });
  const result: ReplayResult = { latenciesMs: [], totals: [], errors: 0, wallMs: 0 };
  let next = 0;
  const client = async () => {
    while (next < job.paths.length) {
      const path = job.paths[next++];
      const started = process.hrtime.bigint();
      const answer = await get(agent, job, path).catch((): Answer => ({ status: 0 }));
      result.latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (answer.status !== 200) result.errors++;
      if (answer.total !== undefined) result.totals.push(answer.total);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: job.clients }, client));
  result.wallMs = Date.now() - started;
  agent.destroy();
  return result;
}

/** Runs `job` in a child process and resolves with its result. */
export function replayInChild(job: ReplayJob): Promise<ReplayResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', (result) => resolve(result as ReplayResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`replay child exited with ${code}`));
    });
    child.send(job);
  });
}

if (require.main === module) {
  process.once('message', (job) => {
    void replay(job as ReplayJob).then((result) => process.send?.(result, () => process.exit(0)));
  });
}

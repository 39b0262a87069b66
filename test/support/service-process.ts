import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { procCpuMicros } from './proc-cpu';

/** The service as a process of its own: `node <args>` from the project folder. */
export interface ServiceProcess {
  process: ChildProcess;
  port: number;
  /** What it has written to stdout so far: one JSON log line each. */
  logs(): string[];
  /** What it has written to stderr so far. */
  stderr(): string;
  /** CPU time spent by the process and its children (HTTP workers), in microseconds (Linux). */
  cpuMicros(): number;
  /** The largest resident set the process has had so far, in MB (Linux's `VmHWM`; else undefined). */
  peakRssMb(): number | undefined;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

/**
 * The Node options that run the TypeScript sources: the project's SWC hook (`scripts/swc-register.js`),
 * which the worker threads and cluster workers of the process load too. It starts faster than
 * ts-node, which loads the TypeScript compiler into each of them.
 */
export const FROM_SOURCE = ['-r', path.resolve(__dirname, '..', '..', 'scripts', 'swc-register.js')];

/** `src/main.ts` from source, transpiled by SWC (fast to start), logging at `info`, with `env` added. */
export function startServiceFromSource(env: Record<string, string>): Promise<ServiceProcess> {
  return spawnService([...FROM_SOURCE, 'src/main.ts'], { LOG_LEVEL: 'info', ...env });
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = http.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts `node <args>` (with `env` added; `PORT` a free port unless given) from the project folder.
 * Its stderr is read, not shown: tests provoke errors.
 */
export async function spawnService(args: string[], env: Record<string, string>): Promise<ServiceProcess> {
  const port = env.PORT === undefined ? await freePort() : Number(env.PORT);
  const child = spawn(process.execPath, args, {
    cwd: path.resolve(__dirname, '..', '..'),
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return {
    process: child,
    port,
    logs: () => output.split('\n').filter((line) => line.startsWith('{')),
    stderr: () => errors,
    cpuMicros: () => treeCpuMicros(child.pid!),
    peakRssMb: () => peakRssMb(child.pid!),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return child.exitCode ?? ((await once(child, 'exit'))[0] as number | null);
    },
  };
}

function peakRssMb(pid: number): number | undefined {
  try {
    const kilobytes = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kilobytes === undefined ? undefined : Math.round(Number(kilobytes) / 1024);
  } catch {
    return undefined;
  }
}

/** CPU time of `pid` and its descendants so far, from /proc, in microseconds. */
function treeCpuMicros(pid: number): number {
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    const cpu = procCpuMicros(`/proc/${next}/stat`);
    // Undefined: it has exited meanwhile.
    if (cpu === undefined) continue;
    total += cpu;
    try {
      const children = readFileSync(`/proc/${next}/task/${next}/children`, 'utf8').trim();
      if (children !== '') pending.push(...children.split(' ').map(Number));
    } catch {
      // It has exited meanwhile.
    }
  }
  return total;
}

/** GET on a connection of its own, so that a cluster may hand it to any worker. */
export function getOnce(
  port: number,
  urlPath: string,
  token?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Connection: 'close' };
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers, agent: false }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      })
      .on('error', reject);
  });
}

/**
 * Polls `done` every `intervalMs` until it holds; throws `what` did not happen after `timeoutMs`,
 * or at once if the service has exited.
 */
async function until(
  service: ServiceProcess,
  done: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs: number,
  intervalMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (service.process.exitCode !== null) {
      throw new Error(`The service exited with ${service.process.exitCode}`);
    }
    if (Date.now() > deadline) throw new Error(`The service did not ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Waits until `GET /health` answers 200; throws after `timeoutMs` or if the service exits. */
export function untilHealthy(service: ServiceProcess, timeoutMs = 45_000): Promise<void> {
  const healthy = () =>
    getOnce(service.port, '/health').then(
      (answer) => answer.status === 200,
      () => false,
    );
  return until(service, healthy, 'become healthy', timeoutMs, 200);
}

/**
 * Waits until the service has logged `times` lines containing `text`; throws after `timeoutMs` or
 * if the service exits.
 */
export function untilLogged(
  service: ServiceProcess,
  text: string,
  times = 1,
  timeoutMs = 45_000,
): Promise<void> {
  const logged = () => service.logs().filter((line) => line.includes(text)).length >= times;
  return until(service, logged, `log "${text}" ${times} times`, timeoutMs, 100);
}

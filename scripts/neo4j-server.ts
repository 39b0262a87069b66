import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { totalmem } from 'node:os';
import path from 'node:path';
import { auth, driver as createDriver } from 'neo4j-driver';

/**
 * Starts and stops the Neo4j Community server of `neo4j/` (a Maven project: an embedded database
 * management service with its Bolt connector on 127.0.0.1). Used by `npm run neo4j:start` and
 * `neo4j:stop` (scripts/neo4j.ts) and by the Neo4j test run (scripts/test-neo4j.ts).
 */

const PROJECT = path.resolve(__dirname, '..', 'neo4j');
const JAR = path.join(PROJECT, 'target', 'neo4j-launcher.jar');
/** The password of a development server when `NEO4J_PASSWORD` is not set (Neo4j wants 8 or more characters). */
export const DEFAULT_PASSWORD = 'archive-dev-password';
const START_TIMEOUT_MS = 240_000;
const STOP_TIMEOUT_MS = 120_000;
/** Flags the Neo4j server's own launcher gives the JVM, for its direct I/O and its network library. */
const JVM_FLAGS = [
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens=java.base/java.io=ALL-UNNAMED',
  '-Dio.netty.tryReflectionSetAccessible=true',
  '-XX:+UseG1GC',
  '-XX:-OmitStackTraceInFastThrow',
];

export interface ServerSettings {
  dataDir: string;
  port: number;
  password: string;
  /** The JVM's maximum heap, as `-Xmx` takes it (`4g`). */
  heap: string;
  /** The page cache, in mebibytes. */
  pageCacheMiB: number;
  /** The most memory one transaction may hold, in mebibytes (`db.memory.transaction.max`); none if absent. */
  transactionMaxMiB?: number;
}

const GIB = 1024 ** 3;

/**
 * The heap when `NEO4J_HEAP` is not set: a quarter of the machine's memory (the JVM's own default),
 * at least 2 GiB and at most 8 GiB, in whole gibibytes. An import is one transaction that Neo4j
 * holds in memory until it commits, so the heap bounds the largest finding aid a server takes.
 */
export function defaultHeap(machineBytes: number = totalmem()): string {
  return `${Math.min(8, Math.max(2, Math.floor(machineBytes / 4 / GIB)))}g`;
}

/** The settings `NEO4J_DATA_DIR`, `NEO4J_BOLT_PORT`, `NEO4J_PASSWORD`, `NEO4J_HEAP`, `NEO4J_PAGE_CACHE` give. */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const port = Number(env.NEO4J_BOLT_PORT ?? 7687);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`NEO4J_BOLT_PORT must be a port number, got "${env.NEO4J_BOLT_PORT}"`);
  }
  const password = env.NEO4J_PASSWORD || DEFAULT_PASSWORD;
  if (password.length < 8) throw new Error('NEO4J_PASSWORD must have at least 8 characters (a Neo4j rule)');
  const heap = env.NEO4J_HEAP || defaultHeap();
  if (!/^\d+[kmg]$/i.test(heap))
    throw new Error(`NEO4J_HEAP must be a size such as 2g or 1536m, got "${heap}"`);
  const pageCacheMiB = Number(env.NEO4J_PAGE_CACHE ?? 512);
  if (!Number.isInteger(pageCacheMiB) || pageCacheMiB < 8) {
    throw new Error(`NEO4J_PAGE_CACHE must be a number of mebibytes, got "${env.NEO4J_PAGE_CACHE}"`);
  }
  return { dataDir: path.resolve(env.NEO4J_DATA_DIR || 'data/neo4j'), port, password, heap, pageCacheMiB };
}

export const boltUrl = (port: number) => `bolt://127.0.0.1:${port}`;
const pidFile = (dataDir: string) => path.join(dataDir, 'neo4j.pid');
const portFile = (dataDir: string) => path.join(dataDir, 'neo4j.port');
export const logFile = (dataDir: string) => path.join(dataDir, 'neo4j.log');

/** The running server of `dataDir`, if any: its pid and Bolt port. */
export function runningServer(dataDir: string): { pid: number; port: number } | undefined {
  if (!existsSync(pidFile(dataDir))) return undefined;
  const pid = Number(readFileSync(pidFile(dataDir), 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || !isLauncher(pid)) {
    rmSync(pidFile(dataDir), { force: true });
    return undefined;
  }
  return { pid, port: Number(readFileSync(portFile(dataDir), 'utf8').trim()) };
}

/** Whether `pid` is alive and, where /proc tells, still our launcher (a pid file can outlive its process). */
function isLauncher(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const cmdline = `/proc/${pid}/cmdline`;
  return (
    !existsSync('/proc/self/cmdline') ||
    (existsSync(cmdline) && readFileSync(cmdline, 'utf8').includes('neo4j-launcher.jar'))
  );
}

/** Builds the launcher with Maven when its jar is missing or older than its sources. */
export function buildLauncher(): void {
  const sources = [path.join(PROJECT, 'pom.xml'), ...listFiles(path.join(PROJECT, 'src'))];
  const built = existsSync(JAR) ? statSync(JAR).mtimeMs : 0;
  if (sources.every((file) => statSync(file).mtimeMs < built)) return;
  console.log('Building the Neo4j launcher (neo4j/, Maven; the first build downloads Neo4j)…');
  const mvn = spawnSync('mvn', ['-B', '-q', '-f', path.join(PROJECT, 'pom.xml'), 'package'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (mvn.error)
    throw new Error(`Cannot run Maven (mvn): ${mvn.error.message}. Install Java 17 and Maven 3.8+.`);
  if (mvn.status !== 0) throw new Error(`Maven failed to build neo4j/ (exit status ${mvn.status})`);
}

function listFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Starts the server in the background and resolves once it accepts the password over Bolt, with
 * whether it started it (false: it was already running).
 */
export async function startServer(settings: ServerSettings): Promise<{ url: string; started: boolean }> {
  const running = runningServer(settings.dataDir);
  if (running) return { url: boltUrl(running.port), started: false };
  if (await portInUse(settings.port)) {
    throw new Error(`Port ${settings.port} is in use by another process: set NEO4J_BOLT_PORT to a free port`);
  }
  buildLauncher();
  mkdirSync(settings.dataDir, { recursive: true });
  const log = openSync(logFile(settings.dataDir), 'a');
  const java = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const child = spawn(java, [`-Xmx${settings.heap}`, ...JVM_FLAGS, '-jar', JAR], {
    detached: true,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      NEO4J_DATA_DIR: settings.dataDir,
      NEO4J_BOLT_PORT: String(settings.port),
      NEO4J_PASSWORD: settings.password,
      NEO4J_PAGE_CACHE: String(settings.pageCacheMiB),
      ...(settings.transactionMaxMiB !== undefined && {
        NEO4J_TRANSACTION_MAX: String(settings.transactionMaxMiB),
      }),
    },
  });
  closeSync(log);
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = `exited with ${signal ?? `status ${code}`}`));
  child.on('error', (error) => (exited = `could not start: ${error.message}`));
  child.unref();
  if (child.pid === undefined) throw new Error(`Cannot start ${java}: is Java 17 installed?`);
  writeFileSync(pidFile(settings.dataDir), `${child.pid}\n`);
  writeFileSync(portFile(settings.dataDir), `${settings.port}\n`);
  const url = boltUrl(settings.port);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await acceptsPassword(url, settings.password))) {
    if (exited !== undefined || Date.now() > deadline) {
      const reason = exited ?? `did not accept Bolt connections within ${START_TIMEOUT_MS / 1000} s`;
      if (exited === undefined) await stopServer(settings.dataDir);
      rmSync(pidFile(settings.dataDir), { force: true });
      throw new Error(
        `Neo4j ${reason}; the end of ${logFile(settings.dataDir)}:\n${logTail(settings.dataDir)}`,
      );
    }
    await sleep(500);
  }
  return { url, started: true };
}

/** Stops the server of `dataDir` and resolves once its process has exited; false if none ran. */
export async function stopServer(dataDir: string): Promise<boolean> {
  const running = runningServer(dataDir);
  if (!running) return false;
  // SIGTERM runs the launcher's shutdown hook, which closes the databases cleanly.
  process.kill(running.pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isLauncher(running.pid)) {
    if (Date.now() > deadline)
      throw new Error(`Neo4j (pid ${running.pid}) still runs ${STOP_TIMEOUT_MS / 1000} s after SIGTERM`);
    await sleep(200);
  }
  rmSync(pidFile(dataDir), { force: true });
  return true;
}

async function acceptsPassword(url: string, password: string): Promise<boolean> {
  const driver = createDriver(url, auth.basic('neo4j', password), { connectionTimeout: 2000 });
  try {
    // False while the server still has its built-in password (the launcher sets ours just after
    // Bolt opens); a server not listening yet throws.
    return await driver.verifyAuthentication();
  } catch {
    return false;
  } finally {
    await driver.close();
  }
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function logTail(dataDir: string): string {
  const file = logFile(dataDir);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-30).join('\n') : '(no log)';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Every setting the service reads, with its default. The README's table and `.env.example`
 * mirror this list; nothing else reads `process.env`.
 */
export interface AppConfig {
  port: number;
  /** Processes serving HTTP on `port`, handed connections by a primary process; 1: this process alone. */
  httpWorkers: number;
  /** `sqlite:<path>` or `bolt://…`, `bolt+s://…`, `neo4j://…`, `neo4j+s://…`. */
  graphUrl: string;
  neo4jUser: string;
  neo4jPassword: string;
  /** Base of the absolute links in portal documents; never taken from request headers. */
  publicUrl: string;
  /** `token`: the portal API needs a bearer token of role `portal`; `off`: it is public. */
  portalAuth: 'token' | 'off';
  logLevel: string;
  /**
   * Text searches ranked by the SQLite store's accelerator rather than by FTS5's bm25 in SQL (the
   * same hits), with what it reads kept and read ahead per store version.
   */
  searchAccelerated: boolean;
  /** The memory (MiB) the accelerated ranking keeps phrases' matches in, per process; unset: the store's default. */
  searchCacheMiB?: number;
  /** The time Node allows to receive a whole request, body included (large uploads); 0: no limit. */
  requestTimeoutMs: number;
  /** How long running imports may finish after SIGTERM before they are cancelled. */
  shutdownGraceMs: number;
  /** Readiness fails when the store's or the workspace's file system has less free space. */
  minFreeDiskBytes: number;
  rateLimits: RateLimitConfig;
  import: ImportConfig;
  portal: PortalConfig;
}

/** Bounds on what one portal search may ask, so that no request costs more than a real one. */
export interface PortalConfig {
  /** Most characters of `q`. */
  maxQueryLength: number;
  /** Most words in `q` (runs of letters, digits and marks, each a prefix query). */
  maxQueryTerms: number;
}

/**
 * Requests a minute, per process (`docs/operations.md`); 0 turns a limit off. Imports are not
 * counted by the minute but bounded by what they hold at once (`ImportConfig.queue`).
 */
export interface RateLimitConfig {
  /** Per portal token (per client address when a request carries none). */
  portal: number;
}

export interface ImportConfig {
  /** Folders that local paths (path lists, `log`, `properties`) must resolve inside. */
  roots: string[];
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  /** Most file entries read from one archive. */
  maxArchiveEntries: number;
  /** Most bytes unpacked from one archive, all entries together. */
  maxArchiveBytes: number;
  /** Fetching from loopback, link-local and private addresses (off unless set). */
  allowPrivateUrls: boolean;
  urlTimeoutMs: number;
  maxUrlBytes: number;
  /**
   * Sources of at least this many bytes are read in a worker thread, beside the writes (formats
   * that can); smaller ones in process. 0: every source.
   */
  workerMinBytes: number;
  /**
   * Where imports run: `thread` (default), in a worker thread of their own beside the thread that
   * answers HTTP; `inline`, in process (for tests that watch the run's objects).
   */
  runner: 'thread' | 'inline';
  /** The import worker thread's heap limit: an import that needs more fails alone. */
  workerMaxHeapMb: number;
  /** How often each running import writes its progress to the log (`Import running`). */
  jobLogIntervalMs: number;
  /** Off: every source is read in process, whatever its size. */
  readInWorker: boolean;
  /** Most bytes of per-item changes one import log keeps; past them, updated items by id only. */
  changesMaxBytes: number;
  /** Where imports keep their temporary files (spooled bodies, fetched documents, scratch stores). */
  tempDir: string;
  /** Deepest nesting of units in one document (an EAD `archdesc` is depth 1). */
  maxDepth: number;
  /** Longest item id an import may make, in characters: it must fit in a portal URL. */
  maxIdLength: number;
  /** Imports held at once (received, queued or running), per acting user and in all. */
  queue: QueueLimits;
}

/** How many imports, and how many bytes of their bodies, the service holds at once (`IMPORT_QUEUE_*`). */
export interface QueueLimits {
  maxJobs: number;
  maxJobsPerUser: number;
  maxBytes: number;
  maxBytesPerUser: number;
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

/** A limit: 0 would refuse everything, so it must be at least 1. */
function positiveIntFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = intFrom(env, name, fallback);
  if (value < 1) throw new Error(`${name} must be at least 1, got "${env[name]}"`);
  return value;
}

function boolFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1' || raw === 'yes') return true;
  if (raw === 'false' || raw === '0' || raw === 'no') return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

function runnerFrom(env: NodeJS.ProcessEnv): ImportConfig['runner'] {
  const raw = env.IMPORT_RUNNER?.trim().toLowerCase() || 'thread';
  if (raw !== 'thread' && raw !== 'inline') {
    throw new Error(`IMPORT_RUNNER must be thread or inline, got "${env.IMPORT_RUNNER}"`);
  }
  return raw;
}

function portalAuthFrom(env: NodeJS.ProcessEnv): AppConfig['portalAuth'] {
  const raw = env.PORTAL_AUTH?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'token') return 'token';
  if (raw === 'off') return 'off';
  throw new Error(`PORTAL_AUTH must be token or off, got "${env.PORTAL_AUTH}"`);
}

const MiB = 1024 * 1024;

const SQLITE_SCHEME = 'sqlite:';

/** The SQLite file a `sqlite:<path>` store URL names; undefined for a Neo4j URL. */
export function sqliteFileOf(graphUrl: string): string | undefined {
  return graphUrl.startsWith(SQLITE_SCHEME) ? graphUrl.slice(SQLITE_SCHEME.length) : undefined;
}

/**
 * Where the service listens: every interface, IPv6 and IPv4, as Node listens by default (Fastify's
 * default is loopback).
 */
export const LISTEN_HOST = '::';

/** The highest TCP port; 0 lets the system choose one. */
const MAX_PORT = 65_535;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = intFrom(env, 'PORT', 3000);
  if (port > MAX_PORT) throw new Error(`PORT must be at most ${MAX_PORT}, got "${env.PORT}"`);
  const httpWorkers = intFrom(env, 'HTTP_WORKERS', 1);
  if (httpWorkers < 1) throw new Error(`HTTP_WORKERS must be at least 1, got "${env.HTTP_WORKERS}"`);
  const graphUrl = env.GRAPH_URL?.trim() || 'sqlite:./data/archive.db';
  if (intFrom(env, 'IMPORT_RATE_LIMIT', 0) !== 0) {
    throw new Error(
      'IMPORT_RATE_LIMIT is no longer read: imports are bounded by IMPORT_QUEUE_MAX_JOBS_PER_USER and ' +
        'the other IMPORT_QUEUE_* settings (docs/operations.md); unset it',
    );
  }
  return {
    port,
    httpWorkers,
    graphUrl,
    neo4jUser: env.NEO4J_USER ?? 'neo4j',
    neo4jPassword: env.NEO4J_PASSWORD ?? '',
    portalAuth: portalAuthFrom(env),
    publicUrl: (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    searchAccelerated: boolFrom(env, 'SEARCH_ACCELERATED', true),
    searchCacheMiB: env.SEARCH_CACHE_MB?.trim() ? positiveIntFrom(env, 'SEARCH_CACHE_MB', 1) : undefined,
    requestTimeoutMs: intFrom(env, 'REQUEST_TIMEOUT_MS', 300_000),
    shutdownGraceMs: intFrom(env, 'SHUTDOWN_GRACE_MS', 20_000),
    minFreeDiskBytes: intFrom(env, 'MIN_FREE_DISK_BYTES', 256 * MiB),
    rateLimits: {
      portal: intFrom(env, 'PORTAL_RATE_LIMIT', 1200),
    },
    import: {
      roots: (env.IMPORT_ROOTS ?? '')
        .split(':')
        .map((root) => root.trim())
        .filter((root) => root !== '')
        .map((root) => path.resolve(root)),
      maxBodyBytes: intFrom(env, 'IMPORT_MAX_BODY_BYTES', 512 * MiB),
      maxArchiveEntries: intFrom(env, 'IMPORT_MAX_ARCHIVE_ENTRIES', 10_000),
      maxArchiveBytes: intFrom(env, 'IMPORT_MAX_ARCHIVE_BYTES', 2048 * MiB),
      allowPrivateUrls: boolFrom(env, 'IMPORT_ALLOW_PRIVATE_URLS', false),
      urlTimeoutMs: intFrom(env, 'IMPORT_URL_TIMEOUT_MS', 30_000),
      maxUrlBytes: intFrom(env, 'IMPORT_MAX_URL_BYTES', 512 * MiB),
      workerMinBytes: intFrom(env, 'IMPORT_WORKER_MIN_BYTES', 8 * MiB),
      runner: runnerFrom(env),
      workerMaxHeapMb: positiveIntFrom(env, 'IMPORT_WORKER_MAX_HEAP_MB', 2048),
      jobLogIntervalMs: positiveIntFrom(env, 'IMPORT_JOB_LOG_INTERVAL_MS', 10_000),
      readInWorker: boolFrom(env, 'IMPORT_READ_IN_WORKER', true),
      changesMaxBytes: intFrom(env, 'IMPORT_CHANGES_MAX_BYTES', 10 * MiB),
      tempDir: path.resolve(env.IMPORT_TEMP_DIR?.trim() || tmpdir()),
      maxDepth: positiveIntFrom(env, 'IMPORT_MAX_DEPTH', 64),
      maxIdLength: positiveIntFrom(env, 'IMPORT_MAX_ID_LENGTH', 1024),
      queue: {
        maxJobs: positiveIntFrom(env, 'IMPORT_QUEUE_MAX_JOBS', 32),
        maxJobsPerUser: positiveIntFrom(env, 'IMPORT_QUEUE_MAX_JOBS_PER_USER', 4),
        maxBytes: positiveIntFrom(env, 'IMPORT_QUEUE_MAX_BYTES', 4096 * MiB),
        maxBytesPerUser: positiveIntFrom(env, 'IMPORT_QUEUE_MAX_BYTES_PER_USER', 1024 * MiB),
      },
    },
    portal: {
      maxQueryLength: positiveIntFrom(env, 'PORTAL_MAX_QUERY_LENGTH', 1024),
      maxQueryTerms: positiveIntFrom(env, 'PORTAL_MAX_QUERY_TERMS', 32),
    },
  };
}

/** DI token for the loaded `AppConfig`. */
export const APP_CONFIG = Symbol('APP_CONFIG');

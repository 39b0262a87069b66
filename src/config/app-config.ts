import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOG_LEVELS, readSettings, SQLITE_SCHEME } from './settings';

/**
 * Every setting the service reads, typed; their names, defaults and allowed values are in
 * `settings.ts`. Nothing else reads `process.env`.
 */
export interface AppConfig {
  port: number;
  /** Processes serving HTTP on `port`, handed connections by a primary process; 1: this process alone. */
  httpWorkers: number;
  /** `sqlite:<path>` or `bolt://…`, `bolt+s://…`, `neo4j://…`, `neo4j+s://…`. */
  graphUrl: string;
  neo4jUser: string;
  neo4jPassword: string;
  /** The most heap one Neo4j write transaction may take by Neo4j's estimate; 0: none; unset: a share of the server's. */
  neo4jTransactionHeapMaxMiB: number | undefined;
  /** Base of the absolute links in portal documents; never taken from request headers. */
  publicUrl: string;
  /** `token`: the portal API needs a bearer token of role `portal`; `off`: it is public. */
  portalAuth: 'token' | 'off';
  logLevel: (typeof LOG_LEVELS)[number];
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
  oai: OaiConfig;
}

/** The OAI-PMH provider (`/oai`, docs/oai-pmh.md). */
export interface OaiConfig {
  /** Headers, or Dublin Core records, an answer lists at most before its resumption token. */
  pageSize: number;
  /** What Identify answers as `repositoryName` and `adminEmail`. */
  repositoryName: string;
  adminEmail: string;
}

/** Bounds on what one portal search may ask, so that no request costs more than a real one. */
export interface PortalConfig {
  /** Most characters of `q`. */
  maxQueryLength: number;
  /** Most words in `q` (runs of letters, digits and marks, each a prefix query). */
  maxQueryTerms: number;
  /**
   * Most hits a search's total and facets are worked out over, where a store's counting grows with
   * the hits (Neo4j); past it `meta.total` is a lower bound (`docs/portal.md`).
   */
  countLimit: number;
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

/** The SQLite file a `sqlite:<path>` store URL names; undefined for a Neo4j URL. */
export function sqliteFileOf(graphUrl: string): string | undefined {
  return graphUrl.startsWith(SQLITE_SCHEME) ? graphUrl.slice(SQLITE_SCHEME.length) : undefined;
}

/**
 * Where the service listens: every interface, IPv6 and IPv4, as Node listens by default (Fastify's
 * default is loopback).
 */
export const LISTEN_HOST = '::';

/**
 * The settings in `env`, checked by their schema (`settings.ts`): a `SettingsError` lists every
 * value that is not allowed.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const settings = readSettings(env);
  return {
    port: settings.PORT,
    httpWorkers: settings.HTTP_WORKERS,
    graphUrl: settings.GRAPH_URL,
    neo4jUser: settings.NEO4J_USER,
    neo4jPassword: settings.NEO4J_PASSWORD,
    neo4jTransactionHeapMaxMiB: settings.NEO4J_TRANSACTION_HEAP_MAX_MB,
    portalAuth: settings.PORTAL_AUTH,
    publicUrl: settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`,
    logLevel: settings.LOG_LEVEL,
    searchAccelerated: settings.SEARCH_ACCELERATED,
    searchCacheMiB: settings.SEARCH_CACHE_MB,
    requestTimeoutMs: settings.REQUEST_TIMEOUT_MS,
    shutdownGraceMs: settings.SHUTDOWN_GRACE_MS,
    minFreeDiskBytes: settings.MIN_FREE_DISK_BYTES,
    rateLimits: { portal: settings.PORTAL_RATE_LIMIT },
    import: {
      roots: settings.IMPORT_ROOTS.split(':')
        .map((root) => root.trim())
        .filter((root) => root !== '')
        .map((root) => path.resolve(root)),
      maxBodyBytes: settings.IMPORT_MAX_BODY_BYTES,
      maxArchiveEntries: settings.IMPORT_MAX_ARCHIVE_ENTRIES,
      maxArchiveBytes: settings.IMPORT_MAX_ARCHIVE_BYTES,
      allowPrivateUrls: settings.IMPORT_ALLOW_PRIVATE_URLS,
      urlTimeoutMs: settings.IMPORT_URL_TIMEOUT_MS,
      maxUrlBytes: settings.IMPORT_MAX_URL_BYTES,
      workerMinBytes: settings.IMPORT_WORKER_MIN_BYTES,
      runner: settings.IMPORT_RUNNER,
      workerMaxHeapMb: settings.IMPORT_WORKER_MAX_HEAP_MB,
      jobLogIntervalMs: settings.IMPORT_JOB_LOG_INTERVAL_MS,
      readInWorker: settings.IMPORT_READ_IN_WORKER,
      changesMaxBytes: settings.IMPORT_CHANGES_MAX_BYTES,
      tempDir: path.resolve(settings.IMPORT_TEMP_DIR || tmpdir()),
      maxDepth: settings.IMPORT_MAX_DEPTH,
      maxIdLength: settings.IMPORT_MAX_ID_LENGTH,
      queue: {
        maxJobs: settings.IMPORT_QUEUE_MAX_JOBS,
        maxJobsPerUser: settings.IMPORT_QUEUE_MAX_JOBS_PER_USER,
        maxBytes: settings.IMPORT_QUEUE_MAX_BYTES,
        maxBytesPerUser: settings.IMPORT_QUEUE_MAX_BYTES_PER_USER,
      },
    },
    portal: {
      maxQueryLength: settings.PORTAL_MAX_QUERY_LENGTH,
      maxQueryTerms: settings.PORTAL_MAX_QUERY_TERMS,
      countLimit: settings.PORTAL_COUNT_LIMIT,
    },
    oai: {
      pageSize: settings.OAI_PAGE_SIZE,
      repositoryName: settings.OAI_REPOSITORY_NAME,
      adminEmail: settings.OAI_ADMIN_EMAIL,
    },
  };
}

/** DI token for the loaded `AppConfig`. */
export const APP_CONFIG = Symbol('APP_CONFIG');

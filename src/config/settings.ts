/**
 * The schema of every setting the service reads: its name, what it may be and its default. It is
 * the one list: `loadConfig` reads the environment through it, and tests hold `.env.example`, the
 * README and `docs/operations.md` to it.
 */

/** How one setting is read from its text (trimmed, never empty: unset and empty mean the default). */
export interface Setting<T> {
  /** What the value may be, as an error says it: "an integer from 0 to 65535". */
  allowed: string;
  /** The value the text means, or undefined when the text is not allowed. */
  parse(text: string): T | undefined;
  /** The value when the variable is unset or empty. */
  fallback: T;
  /** The text as set, spaces at either end included (a password). */
  untrimmed?: boolean;
}

function integer(fallback: number, min: number, max?: number): Setting<number> {
  return {
    allowed: max === undefined ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`,
    parse: (text) => {
      // Digits only: Number() would also take "1e3", "0x10" or "0b1".
      if (!/^\d+$/.test(text)) return undefined;
      const value = Number(text);
      return Number.isSafeInteger(value) && value >= min && (max === undefined || value <= max)
        ? value
        : undefined;
    },
    fallback,
  };
}

/** An optional integer: its absence leaves the choice to the code that uses it. */
function optionalInteger(min: number): Setting<number | undefined> {
  return { ...integer(min, min), fallback: undefined };
}

const TRUE = ['true', '1', 'yes'];
const FALSE = ['false', '0', 'no'];

function boolean(fallback: boolean): Setting<boolean> {
  return {
    allowed: 'true or false (or 1/0, yes/no)',
    parse: (text) => {
      const lower = text.toLowerCase();
      if (TRUE.includes(lower)) return true;
      return FALSE.includes(lower) ? false : undefined;
    },
    fallback,
  };
}

function oneOf<const T extends string>(values: readonly T[], fallback: T): Setting<T> {
  return {
    allowed: `one of ${values.join(', ')}`,
    parse: (text) => values.find((value) => value === text.toLowerCase()),
    fallback,
  };
}

function text(fallback: string, untrimmed = false): Setting<string> {
  return { allowed: 'any text', parse: (value) => value, fallback, untrimmed };
}

/** The schemes of a Neo4j `GRAPH_URL`. */
const NEO4J_SCHEMES = ['bolt:', 'bolt+s:', 'neo4j:', 'neo4j+s:'];
export const SQLITE_SCHEME = 'sqlite:';

const graphUrl: Setting<string> = {
  allowed: 'sqlite:<path>, or a bolt://, bolt+s://, neo4j:// or neo4j+s:// URL',
  parse: (value) => {
    if (value.startsWith(SQLITE_SCHEME)) return value.length > SQLITE_SCHEME.length ? value : undefined;
    return URL.canParse(value) && NEO4J_SCHEMES.includes(new URL(value).protocol) ? value : undefined;
  },
  fallback: 'sqlite:./data/archive.db',
};

/** Undefined: derived from the port (`loadConfig`). */
const publicUrl: Setting<string | undefined> = {
  allowed: 'an http:// or https:// URL',
  parse: (value) =>
    URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol)
      ? value.replace(/\/+$/, '')
      : undefined,
  fallback: undefined,
};

/** An address as the OAI-PMH schema takes one (`emailType`): Identify names it. */
const email: Setting<string> = {
  allowed: 'an e-mail address (name@host.domain)',
  parse: (value) => (/^\S+@(\S+\.)+\S+$/.test(value) ? value : undefined),
  fallback: 'admin@example.org',
};

/** pino's levels, which `LOG_LEVEL` names (pino throws on any other, after the service has started). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const MiB = 1024 * 1024;

/** Every setting, by its variable's name. */
export const SETTINGS = {
  PORT: integer(3000, 0, 65_535),
  HTTP_WORKERS: integer(1, 1),
  GRAPH_URL: graphUrl,
  NEO4J_USER: text('neo4j'),
  NEO4J_PASSWORD: text('', true),
  NEO4J_TRANSACTION_HEAP_MAX_MB: optionalInteger(0),
  PUBLIC_URL: publicUrl,
  PORTAL_AUTH: oneOf(['token', 'off'], 'token'),
  LOG_LEVEL: oneOf(LOG_LEVELS, 'info'),
  SEARCH_ACCELERATED: boolean(true),
  SEARCH_CACHE_MB: optionalInteger(1),
  REQUEST_TIMEOUT_MS: integer(300_000, 0),
  SHUTDOWN_GRACE_MS: integer(20_000, 0),
  MIN_FREE_DISK_BYTES: integer(256 * MiB, 0),
  PORTAL_RATE_LIMIT: integer(1200, 0),
  /** Colon-separated folders. */
  IMPORT_ROOTS: text(''),
  IMPORT_MAX_BODY_BYTES: integer(512 * MiB, 0),
  IMPORT_MAX_ARCHIVE_ENTRIES: integer(10_000, 0),
  IMPORT_MAX_ARCHIVE_BYTES: integer(2048 * MiB, 0),
  IMPORT_ALLOW_PRIVATE_URLS: boolean(false),
  IMPORT_URL_TIMEOUT_MS: integer(30_000, 0),
  IMPORT_MAX_URL_BYTES: integer(512 * MiB, 0),
  IMPORT_WORKER_MIN_BYTES: integer(8 * MiB, 0),
  IMPORT_RUNNER: oneOf(['thread', 'inline'], 'thread'),
  IMPORT_WORKER_MAX_HEAP_MB: integer(2048, 1),
  IMPORT_JOB_LOG_INTERVAL_MS: integer(10_000, 1),
  IMPORT_READ_IN_WORKER: boolean(true),
  IMPORT_CHANGES_MAX_BYTES: integer(10 * MiB, 0),
  /** Empty: the system's temporary folder. */
  IMPORT_TEMP_DIR: text(''),
  IMPORT_MAX_DEPTH: integer(64, 1),
  IMPORT_MAX_ID_LENGTH: integer(1024, 1),
  IMPORT_QUEUE_MAX_JOBS: integer(32, 1),
  IMPORT_QUEUE_MAX_JOBS_PER_USER: integer(4, 1),
  IMPORT_QUEUE_MAX_BYTES: integer(4096 * MiB, 1),
  IMPORT_QUEUE_MAX_BYTES_PER_USER: integer(1024 * MiB, 1),
  PORTAL_MAX_QUERY_LENGTH: integer(1024, 1),
  PORTAL_MAX_QUERY_TERMS: integer(32, 1),
  OAI_PAGE_SIZE: integer(200, 1, 10_000),
  OAI_REPOSITORY_NAME: text('Archival data service'),
  OAI_ADMIN_EMAIL: email,
  PORTAL_COUNT_LIMIT: integer(10_000, 1),
} satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;

/**
 * Settings no longer read, and what took their place: set to anything but their off value, they
 * stop the start rather than be ignored in silence.
 */
const RETIRED_SETTINGS: Record<string, { off: string; allowed: string }> = {
  IMPORT_RATE_LIMIT: {
    off: '0',
    allowed:
      'unset: imports are bounded by IMPORT_QUEUE_MAX_JOBS_PER_USER and the other IMPORT_QUEUE_* settings (docs/operations.md)',
  },
};

/** Each setting's value, of its own type. */
export type SettingValues = {
  [Name in SettingName]: (typeof SETTINGS)[Name] extends Setting<infer T> ? T : never;
};

/** A setting whose value is not allowed. */
export interface SettingProblem {
  name: string;
  value: string;
  allowed: string;
}

/** Settings that are not allowed, all of them, each named with its value and what it may be. */
export class SettingsError extends Error {
  constructor(readonly problems: SettingProblem[]) {
    super(
      [
        `${problems.length === 1 ? 'A setting is' : `${problems.length} settings are`} not allowed:`,
        ...problems.map(
          (problem) => `  ${problem.name}=${JSON.stringify(problem.value)}: must be ${problem.allowed}`,
        ),
        'Set them in the environment or in .env (see .env.example), or unset them for their defaults.',
      ].join('\n'),
    );
    this.name = 'SettingsError';
  }
}

/** Reads every setting from `env`; throws a `SettingsError` listing every value that is not allowed. */
export function readSettings(env: NodeJS.ProcessEnv): SettingValues {
  const values: Record<string, unknown> = {};
  const problems: SettingProblem[] = [];
  for (const [name, setting] of Object.entries(SETTINGS) as [SettingName, Setting<unknown>][]) {
    const raw = env[name];
    const trimmed = raw?.trim() ?? '';
    if (trimmed === '') {
      values[name] = setting.fallback;
      continue;
    }
    const value = setting.parse(setting.untrimmed === true ? raw! : trimmed);
    if (value === undefined) problems.push({ name, value: raw!, allowed: setting.allowed });
    else values[name] = value;
  }
  for (const [name, retired] of Object.entries(RETIRED_SETTINGS)) {
    const raw = env[name];
    const trimmed = raw?.trim() ?? '';
    if (trimmed !== '' && trimmed !== retired.off)
      problems.push({ name, value: raw!, allowed: retired.allowed });
  }
  if (problems.length > 0) throw new SettingsError(problems);
  return values as SettingValues;
}

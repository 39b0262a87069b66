import { toLanguageCode } from '../items/languages';
import { badRequest } from './import-errors';

export type RawQuery = Record<string, string | string[]>;

/** The parameters every import endpoint takes, validated (the format-specific ones stay in `query`). */
export interface ImportRequestParams {
  commit: boolean;
  tolerant: boolean;
  allowUpdate: boolean;
  useSourceId: boolean;
  scope?: string;
  log?: string;
  /** ISO 639-2/T. */
  lang: string;
  tag: string;
  handler?: string;
  importer?: string;
  properties?: string;
  query: RawQuery;
}

const DEFAULT_LANG = 'eng';
const DEFAULT_TAG = '-';
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

/**
 * Keeps the string values of a parsed query string (Fastify gives strings and arrays of them), in
 * an object without a prototype: a parameter named `__proto__` is a parameter like any other,
 * where assigning it to a plain object would replace the object's prototype.
 */
export function rawQueryOf(query: unknown): RawQuery {
  const raw = Object.create(null) as RawQuery;
  if (typeof query !== 'object' || query === null) return raw;
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string') raw[name] = value;
    else if (Array.isArray(value)) raw[name] = value.map(String);
  }
  return raw;
}

/** A parameter that may be given once at most. */
export function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw badRequest(`Parameter "${name}" may be given only once`);
  return value;
}

/**
 * A whole number from 1 to `max`, or `fallback` when the parameter is absent; anything else is a 400.
 * `max` is at most `Number.MAX_SAFE_INTEGER`: a larger number would reach the store rounded, or as a
 * float it refuses.
 */
export function positiveInteger(
  query: RawQuery,
  name: string,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = single(query, name);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1 || number > max) {
    const range = `an integer from 1 to ${max}`;
    throw badRequest(`Parameter "${name}" must be ${range}, got "${value}"`);
  }
  return number;
}

function nonEmpty(query: RawQuery, name: string): string | undefined {
  const value = single(query, name);
  if (value !== undefined && value.trim() === '') {
    throw badRequest(`Parameter "${name}" must not be empty`);
  }
  return value;
}

function flag(query: RawQuery, name: string): boolean {
  const value = single(query, name);
  if (value === undefined) return false;
  const parsed = BOOLEANS.get(value.trim().toLowerCase());
  if (parsed === undefined) {
    throw badRequest(`Parameter "${name}" must be true or false, got "${value}"`);
  }
  return parsed;
}

function language(query: RawQuery): string {
  const value = nonEmpty(query, 'lang');
  if (value === undefined) return DEFAULT_LANG;
  const code = toLanguageCode(value.trim());
  if (code === undefined) throw badRequest(`Unknown language code: ${value}`);
  return code;
}

/** Whether the request asks for a committed import; malformed values count as a dry run. */
export function commitRequested(query: RawQuery): boolean {
  try {
    return flag(query, 'commit');
  } catch {
    return false;
  }
}

/** The `scope` parameter as given, when it is given once. */
export function scopeOf(query: RawQuery): string | undefined {
  const scope = query.scope;
  return typeof scope === 'string' ? scope : undefined;
}

/** Validates the common import parameters; every malformed value is a 400. */
export function parseImportParams(query: RawQuery): ImportRequestParams {
  return {
    commit: flag(query, 'commit'),
    tolerant: flag(query, 'tolerant'),
    allowUpdate: flag(query, 'allow-update'),
    useSourceId: flag(query, 'use-source-id'),
    scope: nonEmpty(query, 'scope'),
    log: single(query, 'log'),
    lang: language(query),
    tag: single(query, 'tag') || DEFAULT_TAG,
    handler: nonEmpty(query, 'handler'),
    importer: nonEmpty(query, 'importer'),
    properties: nonEmpty(query, 'properties'),
    query,
  };
}

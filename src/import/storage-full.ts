import { HttpStatus, Logger } from '@nestjs/common';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { AppConfig, sqliteFileOf } from '../config/app-config';
import { StoreUnavailableError, TransactionTooLargeError } from '../graph/store-errors';
import { ImportHttpError } from './import-errors';
import { SpoolWriteError } from './sources/body-spool';

/**
 * Errors that mean a write found no room: a full file system, a quota, a file size limit
 * (`ulimit -f`), and SQLite's own word for the first of them.
 */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL']);

/** Below this, a folder's file system counts as full when a write found no room. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/** A folder an import writes to: what the answer calls it, and the setting that places it. */
export interface WrittenFolder {
  name: string;
  setting: string;
  folder: string;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error`, or an error it was caused by, is a write that found no room. */
export function foundNoRoom(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (NO_ROOM.has(codeOf(cause) ?? '')) return true;
    cause = cause.cause;
  }
  return false;
}

function inside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

async function nearlyFull(folder: string): Promise<boolean> {
  const stats = await statfs(folder).catch(() => undefined);
  return stats !== undefined && stats.bavail * stats.bsize < NEARLY_FULL_BYTES;
}

/**
 * The folders a write that found no room was in: the one its path names, or else (SQLite names no
 * file) those whose file system is nearly full; all of them when neither tells.
 */
async function fullFolders(error: unknown, folders: readonly WrittenFolder[]): Promise<WrittenFolder[]> {
  const file = error instanceof SpoolWriteError ? error.file : (error as { path?: unknown } | null)?.path;
  if (typeof file === 'string') {
    // The innermost, when one folder holds another.
    const named = folders
      .filter(({ folder }) => inside(file, folder))
      .sort((a, b) => b.folder.length - a.folder.length);
    if (named.length > 0) return named.slice(0, 1);
  }
  const full: WrittenFolder[] = [];
  for (const folder of folders) if (await nearlyFull(folder.folder)) full.push(folder);
  return full.length > 0 ? full : [...folders];
}

/**
 * `503 Service Unavailable` for an import that failed because the store cannot be written (its
 * file or file system read-only, or its server not answering), which readiness reports too;
 * undefined for any other failure.
 */
export function storeNotWritable(error: unknown): ImportHttpError | undefined {
  if (error instanceof StoreUnavailableError) {
    return new ImportHttpError(HttpStatus.SERVICE_UNAVAILABLE, error.message);
  }
  if (!(codeOf(error) ?? '').startsWith('SQLITE_READONLY')) return undefined;
  return new ImportHttpError(
    HttpStatus.SERVICE_UNAVAILABLE,
    'The store cannot be written now (it is read-only): nothing was imported',
  );
}

/**
 * `507 Insufficient Storage` naming the folder that is full, for an import that failed because a
 * write found no room; undefined for any other failure. Nothing of such an import is kept: its
 * transaction is rolled back, and a truncated body is never read.
 */
export async function insufficientStorage(
  error: unknown,
  folders: readonly WrittenFolder[],
): Promise<ImportHttpError | undefined> {
  if (!foundNoRoom(error)) return undefined;
  const full = await fullFolders(error, folders);
  const names = full.map(({ name, setting }) => `the ${name} (${setting})`).join(' or ');
  return new ImportHttpError(HttpStatus.INSUFFICIENT_STORAGE, {
    message: `No room to write in ${names}: nothing was imported`,
    folders: full.map(({ name }) => name),
  });
}

/** Where an import writes, from the configuration: the temporary folder, and the SQLite store's folder. */
export function writtenFoldersOf(config: AppConfig): WrittenFolder[] {
  const folders: WrittenFolder[] = [
    { name: 'temporary folder', setting: 'IMPORT_TEMP_DIR', folder: config.import.tempDir },
  ];
  const storeFile = sqliteFileOf(config.graphUrl);
  if (storeFile !== undefined) {
    folders.push({
      name: "store's folder",
      setting: 'GRAPH_URL',
      folder: path.dirname(path.resolve(storeFile)),
    });
  }
  return folders;
}

/**
 * `413 Payload Too Large` for an import whose transaction the store refused more memory, naming
 * the store's limit and the setting that raises it; undefined for any other failure.
 */
export function transactionTooLarge(error: unknown): ImportHttpError | undefined {
  if (!(error instanceof TransactionTooLargeError)) return undefined;
  return new ImportHttpError(HttpStatus.PAYLOAD_TOO_LARGE, {
    message: error.message,
    setting: error.setting,
    ...(error.limit !== undefined && { limit: error.limit }),
  });
}

/**
 * A failure as the client is told it: a write that found no room is the service's 507, a store
 * that cannot be written its 503, a transaction too large for the store its 413; anything else as
 * it is.
 */
export async function explainedFailure(
  error: unknown,
  folders: readonly WrittenFolder[],
  logger: Logger,
): Promise<unknown> {
  const refusal =
    (await insufficientStorage(error, folders)) ?? storeNotWritable(error) ?? transactionTooLarge(error);
  if (refusal === undefined) return error;
  logger.error({ err: error, msg: `An import could not write: ${refusal.message}` });
  return refusal;
}

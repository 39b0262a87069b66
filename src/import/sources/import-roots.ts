import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppConfig, sqliteFileOf } from '../../config/app-config';
import { badRequest } from '../import-errors';
import { WORKSPACE_PREFIX } from './workspace';

/** The name `ImportWorkspace.create` gives a workspace: the prefix, the process id, a dash. */
const WORKSPACE_NAME = new RegExp(`^${WORKSPACE_PREFIX}\\d+-`);

/** Where the service keeps files of its own, which no request may have it read. */
export interface ServiceFolders {
  /** The store's folder: its file, the `-wal` and `-shm` files, the tokens' file. Refused whole. */
  data?: string;
  /**
   * The temp folder (`IMPORT_TEMP_DIR`): the import workspaces in it (every import's spooled
   * body) are refused; the rest of a temp folder shared with the system (`/tmp`) is not the
   * service's.
   */
  temp?: string;
}

/** The service's own folders as `config` places them; no data folder for a Neo4j store. */
export function serviceFoldersOf(config: AppConfig): ServiceFolders {
  const file = sqliteFileOf(config.graphUrl);
  return {
    data: file === undefined ? undefined : path.dirname(path.resolve(file)),
    temp: config.import.tempDir,
  };
}

function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

async function realOrUndefined(candidate: string): Promise<string | undefined> {
  try {
    return await realpath(candidate);
  } catch {
    return undefined;
  }
}

async function isReadableFile(candidate: string): Promise<boolean> {
  try {
    await access(candidate, constants.R_OK);
    return (await stat(candidate)).isFile();
  } catch {
    return false;
  }
}

/**
 * The folders (`IMPORT_ROOTS`) that local paths named by a request (path lists, `log`,
 * `properties`) must lie in. A path is checked lexically before the file system is touched, and
 * again after symbolic links are resolved, so that neither `..` nor a link leads outside.
 */
export class ImportRoots {
  constructor(
    private readonly roots: readonly string[],
    private readonly own: ServiceFolders = {},
  ) {}

  static of(config: AppConfig): ImportRoots {
    return new ImportRoots(config.import.roots, serviceFoldersOf(config));
  }

  get configured(): boolean {
    return this.roots.length > 0;
  }

  /**
   * The roots that hold the service's own folders or lie inside them, each with what it overlaps:
   * files there are refused all the same (`resolveFile`), but such roots are a mistake to tell.
   */
  overlaps(): string[] {
    const folders = Object.entries(this.own).filter((entry): entry is [string, string] => !!entry[1]);
    return this.roots.flatMap((root) =>
      folders
        .filter(([, folder]) => isInside(folder, root) || isInside(root, folder))
        .map(([kind, folder]) => `${root} overlaps the ${kind} folder ${folder}`),
    );
  }

  /** Why `file` (lexical or real) is one of the service's own, or undefined when it is not. */
  private ownFile(file: string): string | undefined {
    if (this.own.data !== undefined && isInside(this.own.data, file)) {
      return "it lies in the service's data folder (the store and its files)";
    }
    if (this.own.temp !== undefined) {
      const [first] = path.relative(this.own.temp, file).split(path.sep);
      if (isInside(this.own.temp, file) && WORKSPACE_NAME.test(first)) {
        return "it lies in an import's workspace in the service's temp folder";
      }
    }
    return undefined;
  }

  /**
   * The real path of the readable regular file `name` names inside a root: an absolute path, or
   * a path relative to a root (the first root holding it wins). `undefined` for anything else. A
   * file of the service's own (`ServiceFolders`), whatever the roots say, is a 400 naming `what`
   * (the parameter) and why.
   */
  async resolveFile(name: string, what = 'The path'): Promise<string | undefined> {
    if (name === '' || name.includes('\0')) return undefined;
    const candidates = this.roots
      .map((root) => path.resolve(root, name))
      .filter((candidate) => this.roots.some((root) => isInside(root, candidate)));
    if (candidates.length === 0) return undefined;
    const realRoots = (await Promise.all(this.roots.map(realOrUndefined))).filter(
      (root) => root !== undefined,
    );
    for (const candidate of candidates) {
      const real = await realOrUndefined(candidate);
      const own = this.ownFile(candidate) ?? (real === undefined ? undefined : await this.ownRealFile(real));
      if (own !== undefined) throw badRequest(`${what} names a file the service never reads: ${own}`);
      if (real === undefined || !realRoots.some((root) => isInside(root, real))) continue;
      if (await isReadableFile(real)) return real;
    }
    return undefined;
  }

  /** As `ownFile`, for a real path: against the real paths of the service's folders too. */
  private async ownRealFile(real: string): Promise<string | undefined> {
    const own = new ImportRoots([], {
      data: this.own.data === undefined ? undefined : await realOrUndefined(this.own.data),
      temp: this.own.temp === undefined ? undefined : await realOrUndefined(this.own.temp),
    });
    return this.ownFile(real) ?? own.ownFile(real);
  }
}

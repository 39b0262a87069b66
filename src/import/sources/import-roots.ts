import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

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
  constructor(private readonly roots: readonly string[]) {}

  get configured(): boolean {
    return this.roots.length > 0;
  }

  /**
   * The real path of the readable regular file `name` names inside a root: an absolute path, or
   * a path relative to a root (the first root holding it wins). `undefined` for anything else.
   */
  async resolveFile(name: string): Promise<string | undefined> {
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
      if (real === undefined || !realRoots.some((root) => isInside(root, real))) continue;
      if (await isReadableFile(real)) return real;
    }
    return undefined;
  }
}

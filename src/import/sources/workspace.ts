import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { ImportSource } from '../formats/format-reader';

/** Workspaces are named `import-<pid>-<random>`. */
export const WORKSPACE_PREFIX = 'import-';

/**
 * A private temporary folder for one import: the spooled request body, fetched documents and
 * unpacked archive entries. Files get numbered names, never names from the request, and the
 * folder is removed with everything in it when the import ends.
 */
export class ImportWorkspace {
  private count = 0;

  private constructor(readonly folder: string) {}

  /** A new folder in `tempDir`, named with this process's id so that start-up clean-up knows it. */
  static async create(tempDir: string): Promise<ImportWorkspace> {
    return new ImportWorkspace(await mkdtemp(path.join(tempDir, `${WORKSPACE_PREFIX}${process.pid}-`)));
  }

  /** A path for a new file in the workspace. */
  newFile(): string {
    this.count += 1;
    return path.join(this.folder, `${this.count}.part`);
  }

  async dispose(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
  }
}

/** A source read from a file, in chunks; `size` is its length when known. */
export function fileSource(
  tag: string,
  file: string,
  details: Pick<ImportSource, 'contentType' | 'size'> = {},
): ImportSource {
  return { tag, ...details, file, bytes: () => createReadStream(file) };
}

import { statfs } from 'node:fs/promises';
import path from 'node:path';

/**
 * Bytes an unprivileged process may still write on the file system holding `folder`, or its
 * nearest existing parent (a folder the service creates on first use may not exist yet).
 */
export async function freeBytes(folder: string): Promise<number> {
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    try {
      const stats = await statfs(current);
      return stats.bavail * stats.bsize;
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) throw error;
    }
  }
}

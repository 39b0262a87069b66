import { once } from 'node:events';
import { Readable } from 'node:stream';

/** The part of archiver 8's `ZipArchive` used here. */
interface ZipArchive extends Readable {
  append(source: Readable, data: { name: string }): this;
  finalize(): Promise<void>;
}

/**
 * archiver 8 is an ES module without types of its own (`@types/archiver` describes version 7's
 * API), loaded through Node's `require` of ES modules.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const archiver = require('archiver') as {
  ZipArchive: new (options?: { zlib?: { level?: number } }) => ZipArchive;
};

/** One file of a ZIP: its name and its content as text chunks, produced as the ZIP is read. */
export interface ZipEntry {
  name: string;
  chunks: () => AsyncIterable<string>;
}

/**
 * A ZIP of `entries`, written as it is read: one entry is produced at a time, and the next is only
 * asked for once the archive has taken in the last, so memory holds one entry's chunk at most.
 * A failure destroys the stream, which cuts the response short (its status is sent already).
 */
export function zipStream(entries: AsyncIterable<ZipEntry>): Readable {
  const archive = new archiver.ZipArchive({ zlib: { level: 6 } });
  // Settles when the archive is gone: read to its end, destroyed, or failed.
  const closed = once(archive, 'close').then(
    () => 'closed' as const,
    () => 'closed' as const,
  );
  void (async () => {
    try {
      for await (const entry of entries) {
        const taken = once(archive, 'entry').then(() => 'taken' as const);
        // Its failure, if the archive closes first, is the archive's own and reported by it.
        taken.catch(() => undefined);
        archive.append(Readable.from(entry.chunks(), { objectMode: false }), { name: entry.name });
        const outcome = await Promise.race([taken, closed]);
        if (outcome === 'closed') return;
      }
      await archive.finalize();
    } catch (error) {
      archive.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return archive;
}

import { createReadStream, createWriteStream, WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Parser, ReadEntry } from 'tar';
import yauzl, { Entry, ZipFile } from 'yauzl';
import { ImportSource } from '../formats/format-reader';
import { badRequest, ImportHttpError, tooLarge } from '../import-errors';
import { fileSource, ImportWorkspace } from './workspace';

export interface ArchiveLimits {
  /** Most entries (files, folders, links) in one archive. */
  maxEntries: number;
  /** Most bytes unpacked from one archive, all entries together. */
  maxBytes: number;
}

type ArchiveFormat = 'zip' | 'tar';

const HEADER_BYTES = 512;
const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const USTAR_MAGIC = Buffer.from('ustar', 'latin1');
const USTAR_OFFSET = 257;
const TAR_FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** zip, tar or gzip (tar.gz, which the tar parser unpacks) from the first bytes. */
async function formatOf(file: string): Promise<ArchiveFormat | undefined> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, HEADER_BYTES, 0);
    const head = header.subarray(0, bytesRead);
    if (ZIP_MAGIC.some((magic) => head.subarray(0, 4).equals(magic))) return 'zip';
    if (head.subarray(0, 2).equals(GZIP_MAGIC)) return 'tar';
    const ustar = head.subarray(USTAR_OFFSET, USTAR_OFFSET + USTAR_MAGIC.length);
    // An archive with no entries is nothing but zero blocks.
    if (ustar.equals(USTAR_MAGIC) || (bytesRead === HEADER_BYTES && head.every((byte) => byte === 0))) {
      return 'tar';
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Archive members that are not documents: folders, and what macOS's Finder adds to every archive
 * it makes (`__MACOSX/` resource forks, `._` AppleDouble files, `.DS_Store`).
 */
function isIgnored(name: string): boolean {
  const base = name.split('/').pop() ?? '';
  return name.endsWith('/') || name.startsWith('__MACOSX/') || base.startsWith('._') || base === '.DS_Store';
}

function tooManyEntries(limits: ArchiveLimits): ImportHttpError {
  return tooLarge(`The archive has more than ${limits.maxEntries} entries (IMPORT_MAX_ARCHIVE_ENTRIES)`);
}

function tooManyBytes(limits: ArchiveLimits): ImportHttpError {
  return tooLarge(`The archive unpacks to more than ${limits.maxBytes} bytes (IMPORT_MAX_ARCHIVE_BYTES)`);
}

function invalid(format: ArchiveFormat, error: unknown): Error {
  if (error instanceof ImportHttpError) return error;
  return badRequest(`Invalid ${format} archive: ${(error as Error).message}`);
}

// yauzl decodes names itself only when it also refuses unsafe ones (`../x`); entry names are
// never paths here, just tags, so they are decoded without that check.
const decodeZipName = (
  yauzl as unknown as {
    getFileNameLowLevel(flags: number, name: Buffer, extraFields: unknown[], strict: boolean): string;
  }
).getFileNameLowLevel;

function zipEntryName(entry: Entry): string {
  return decodeZipName(
    entry.generalPurposeBitFlag,
    entry.fileName as unknown as Buffer,
    entry.extraFields,
    false,
  );
}

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    );
  });
}

/**
 * The central directory's entries. Sizes are the declared ones, so a zip bomb is refused before
 * anything is inflated; yauzl then fails any entry that inflates to more than it declared.
 */
function zipEntries(zip: ZipFile, limits: ArchiveLimits): Promise<{ name: string; entry: Entry }[]> {
  if (zip.entryCount > limits.maxEntries) return Promise.reject(tooManyEntries(limits));
  return new Promise((resolve, reject) => {
    const found: { name: string; entry: Entry }[] = [];
    let bytes = 0;
    zip.on('entry', (entry: Entry) => {
      bytes += entry.uncompressedSize;
      if (bytes > limits.maxBytes) return reject(tooManyBytes(limits));
      found.push({ name: zipEntryName(entry), entry });
      zip.readEntry();
    });
    zip.on('end', () => resolve(found));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/** Unpacks an entry into `target`; a damaged entry (bad data, more bytes than declared) is a 400. */
async function unpackZipEntry(zip: ZipFile, entry: Entry, name: string, target: string): Promise<void> {
  try {
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entry, (error, readable) => (error ? reject(error) : resolve(readable))),
    );
    await pipeline(stream, createWriteStream(target));
  } catch (error) {
    throw badRequest(`Invalid zip archive: entry ${name}: ${(error as Error).message}`);
  }
}

/**
 * Unpacks a zip's documents into numbered workspace files, as a tar's are: a reader in a worker
 * thread opens a document's file there rather than have its bytes passed on.
 * The declared sizes were counted against the limits first, and no entry inflates beyond its own.
 */
async function zipSources(file: string, workspace: ImportWorkspace, limits: ArchiveLimits) {
  const zip = await openZip(file);
  try {
    const sources: ImportSource[] = [];
    for (const { name, entry } of await zipEntries(zip, limits)) {
      if (isIgnored(name)) continue;
      const target = workspace.newFile();
      await unpackZipEntry(zip, entry, name, target);
      sources.push(fileSource(name, target, { size: entry.uncompressedSize }));
    }
    return sources;
  } finally {
    zip.close();
  }
}

/**
 * Unpacks a tar (or tar.gz) into numbered workspace files in one pass, counting entries and bytes
 * from each header before its data is read, and stopping at the first limit crossed.
 */
function tarSources(
  file: string,
  workspace: ImportWorkspace,
  limits: ArchiveLimits,
): Promise<ImportSource[]> {
  const sources: ImportSource[] = [];
  const outputs: WriteStream[] = [];
  const writes: Promise<void>[] = [];
  let entries = 0;
  let bytes = 0;
  const parser = new Parser({ strict: true });
  parser.on('entry', (entry: ReadEntry) => {
    entries += 1;
    bytes += entry.size;
    if (entries > limits.maxEntries) return parser.abort(tooManyEntries(limits));
    if (bytes > limits.maxBytes) return parser.abort(tooManyBytes(limits));
    if (!TAR_FILE_TYPES.has(entry.type) || isIgnored(entry.path)) return entry.resume();
    const target = workspace.newFile();
    const output = createWriteStream(target);
    outputs.push(output);
    writes.push(pipeline(entry, output));
    sources.push(fileSource(entry.path, target, { size: entry.size }));
  });
  return new Promise<ImportSource[]>((resolve, reject) => {
    const input = createReadStream(file);
    parser.on('error', (error: Error) => {
      // `pipe` leaves the archive open, paused where the parser stopped taking it.
      input.destroy();
      outputs.forEach((output) => output.destroy());
      reject(error);
    });
    parser.on('end', () => Promise.all(writes).then(() => resolve(sources), reject));
    input.on('error', reject).pipe(parser as unknown as NodeJS.WritableStream);
  });
}

/**
 * The documents of a zip, tar or tar.gz archive, each tagged with its entry name. Entry names are
 * never used as file-system paths. An archive without documents is a 400.
 */
export async function archiveSources(
  file: string,
  workspace: ImportWorkspace,
  limits: ArchiveLimits,
): Promise<ImportSource[]> {
  const format = await formatOf(file);
  if (format === undefined) {
    throw badRequest(
      'The body is not a zip, tar or tar.gz archive. Send one XML document as application/xml, ' +
        'local paths as text/plain, or a map of names to URLs as application/json.',
    );
  }
  let sources: ImportSource[];
  try {
    sources = await (format === 'zip' ? zipSources : tarSources)(file, workspace, limits);
  } catch (error) {
    throw invalid(format, error);
  }
  if (sources.length === 0) throw badRequest('The archive contains no documents');
  return sources;
}

import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, readdir, rm, stat, utimes } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { GraphReader } from '../../graph/graph-store';
import { ImportEvent, ImportSource } from '../formats/read-events';

/**
 * Read memos: what reading a document gave, kept so that the same bytes read with the same
 * settings are not parsed again. A re-import of an unchanged finding aid is the common case, and
 * its reader alone costs several times a bare parse; replaying its memo costs a hash of the
 * bytes and a look-up of the stored hashes.
 *
 * A memo is a cache, never a source of truth. It is keyed by a SHA-256 of the bytes, the tag and
 * the reader's recipe (its name, build and settings), so it holds the reader's own output for
 * those: ids, change hashes and refusals, nothing about the store. It is replayed only when the
 * store, inside the import's transaction, holds every id it lists with the listed hash: then the
 * import run finds every item unchanged without building it, exactly as after a fresh read, and
 * no item ever needs building from a memo. Otherwise the document is read afresh.
 */

export interface ReadMemoSettings {
  /** The folder memos are kept in (created when first needed). */
  folder: string;
  /** Most bytes of memos kept, the least recently used dropped first; 0 turns memos off. */
  maxBytes: number;
}

/** Raised when the layout of a memo's lines or its key changes: older memos are then never found. */
const MEMO_FORMAT = 2;
const MEMO_SUFFIX = '.memo';
/** Ids looked up per round trip when checking a memo against the store. */
const CHECK_BATCH = 2_000;
/** Bytes of lines gathered before they are written. */
const WRITE_CHUNK = 64 * 1024;
/** A memo left unfinished by a process that stopped is removed after this long. */
const ABANDONED_MS = 60 * 60 * 1000;

/** One line of a memo: an item's id and hash, or a refusal's key and message. */
type MemoLine = [id: string, hash: string] | [null, key: string, message: string];

/** The SHA-256 (hex) of a file's bytes. */
async function fileDigest(file: string): Promise<string> {
  const digest = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    digest.update(chunk as Buffer);
  }
  return digest.digest('hex');
}

/**
 * The SHA-256 of the recipe, the tag and the digest of the source's bytes: what a memo is found
 * by. The bytes' digest is the source's own when it has one, else the file is read for it.
 */
async function memoKey(source: ImportSource, file: string, recipe: unknown): Promise<string> {
  const bytes = source.digest ?? (await fileDigest(file));
  return createHash('sha256')
    .update(JSON.stringify([MEMO_FORMAT, source.tag, recipe, bytes]))
    .digest('hex');
}

function lineOf(event: ImportEvent): MemoLine | undefined {
  switch (event.kind) {
    case 'deferred':
      return [event.id, event.hash];
    case 'item':
      return event.hash === undefined ? undefined : [event.write.bundle.id, event.hash];
    case 'invalid':
      return [null, event.key, event.message];
  }
}

function eventOf(line: MemoLine, tag: string): ImportEvent {
  if (line[0] === null) return { kind: 'invalid', tag, key: line[1], message: line[2] };
  const [id, hash] = line;
  return {
    kind: 'deferred',
    tag,
    id,
    hash,
    build: () => {
      // Unreachable: a memo is replayed only when the store holds every item with its hash.
      throw new Error(`Item ${id} was replayed from a read memo and cannot be built`);
    },
  };
}

/**
 * What tells that a file was not rewritten: its inode, size and modification time. A local file
 * (a path inside the import roots) can change while it is hashed or read; a memo is kept only
 * when its stamp is the same after reading as before hashing.
 */
async function stampOf(file: string): Promise<string> {
  const { ino, size, mtimeNs } = await stat(file, { bigint: true });
  return `${ino}:${size}:${mtimeNs}`;
}

/** The lines of an open memo, from its start. */
async function* memoLines(memo: FileHandle): AsyncGenerator<MemoLine> {
  const lines = createInterface({
    input: memo.createReadStream({ start: 0, autoClose: false }),
    crlfDelay: Infinity,
  });
  for await (const line of lines) yield JSON.parse(line) as MemoLine;
}

/**
 * A memo being written: lines go to a file of its own, renamed into place when reading ends well.
 * A memo is only a cache: when it cannot be written (a full disk, a folder not writable), the
 * import goes on without it.
 */
class MemoWriter {
  private readonly temporary: string;
  private fd: number | undefined;
  private pending = '';

  constructor(private readonly file: string) {
    this.temporary = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      this.fd = openSync(this.temporary, 'w');
    } catch {
      this.fd = undefined;
    }
  }

  write(line: MemoLine): void {
    if (this.fd === undefined) return;
    this.pending += `${JSON.stringify(line)}\n`;
    if (this.pending.length >= WRITE_CHUNK) this.attempt((fd) => this.drain(fd));
  }

  /** Keeps the memo. */
  finish(): void {
    this.attempt((fd) => {
      this.drain(fd);
      this.fd = undefined;
      closeSync(fd);
      renameSync(this.temporary, this.file);
    });
  }

  /** Drops the memo, and what was written of it. */
  abandon(): void {
    const fd = this.fd;
    this.fd = undefined;
    try {
      if (fd !== undefined) closeSync(fd);
      rmSync(this.temporary, { force: true });
    } catch {
      // Left for `evict` to remove once abandoned long enough.
    }
  }

  private drain(fd: number): void {
    writeSync(fd, this.pending);
    this.pending = '';
  }

  private attempt(step: (fd: number) => void): void {
    if (this.fd === undefined) return;
    try {
      step(this.fd);
    } catch {
      this.abandon();
    }
  }
}

export class ReadMemos {
  constructor(private readonly settings: ReadMemoSettings) {}

  /**
   * Reads `source` with `read`, or replays the memo of an earlier reading of the same bytes with
   * the same `recipe` when `store` holds every item it lists as listed. A source read afresh is
   * memoised once its reading ends without an error. Only sources read from a local file take
   * part: their bytes can be hashed before they are read.
   */
  async *read(
    source: ImportSource,
    recipe: unknown,
    store: GraphReader,
    read: () => AsyncIterable<ImportEvent>,
  ): AsyncGenerator<ImportEvent> {
    const found = await this.memoFile(source, recipe);
    if (found === undefined) {
      yield* read();
      return;
    }
    const { file, sourceUnchanged } = found;
    const memo = await open(file, 'r').catch(() => undefined);
    try {
      if (memo !== undefined && (await this.storeHolds(memo, store).catch(() => false))) {
        await utimes(file, new Date(), new Date()).catch(() => undefined);
        for await (const line of memoLines(memo)) yield eventOf(line, source.tag);
        return;
      }
    } finally {
      await memo?.close();
    }
    yield* this.recorded(read(), file, sourceUnchanged);
    await this.evict().catch(() => undefined);
  }

  /**
   * Where the source's memo is (or would be), when memos are on and the source can have one, and
   * whether the source file is still as it was before it was hashed.
   */
  private async memoFile(
    source: ImportSource,
    recipe: unknown,
  ): Promise<{ file: string; sourceUnchanged: () => Promise<boolean> } | undefined> {
    const { folder, maxBytes } = this.settings;
    if (maxBytes === 0 || source.file === undefined) return undefined;
    const usable = await mkdir(folder, { recursive: true }).then(
      () => true,
      () => false,
    );
    if (!usable) return undefined;
    const sourceFile = source.file;
    const stamp = await stampOf(sourceFile);
    const key = await memoKey(source, sourceFile, recipe);
    return {
      file: path.join(folder, `${key}${MEMO_SUFFIX}`),
      sourceUnchanged: async () => (await stampOf(sourceFile).catch(() => undefined)) === stamp,
    };
  }

  /** Whether the store holds every item the memo lists, with the memo's hash. */
  private async storeHolds(memo: FileHandle, store: GraphReader): Promise<boolean> {
    let batch: [string, string][] = [];
    const batchHeld = async () => {
      const stored = await store.getHashes(batch.map(([id]) => id));
      const held = batch.every(([id, hash]) => stored.get(id) === hash);
      batch = [];
      return held;
    };
    for await (const line of memoLines(memo)) {
      if (line[0] !== null) batch.push(line);
      if (batch.length >= CHECK_BATCH && !(await batchHeld())) return false;
    }
    return batchHeld();
  }

  /**
   * The events of a fresh reading, written down as they pass; kept only when all have passed and
   * the source is `unchanged` since it was hashed.
   */
  private async *recorded(
    events: AsyncIterable<ImportEvent>,
    file: string,
    unchanged: () => Promise<boolean>,
  ): AsyncGenerator<ImportEvent> {
    const writer = new MemoWriter(file);
    try {
      for await (const event of events) {
        const line = lineOf(event);
        // An item without a hash cannot be found unchanged without building it: no memo.
        if (line === undefined) writer.abandon();
        else writer.write(line);
        yield event;
      }
      if (await unchanged()) writer.finish();
    } finally {
      // Left before the end (an error, or the run stopped reading): nothing is kept.
      writer.abandon();
    }
  }

  /** Drops the least recently used memos until the rest fit in `maxBytes`, and abandoned ones. */
  private async evict(): Promise<void> {
    const folder = this.settings.folder;
    const now = Date.now();
    const memos: { file: string; size: number; used: number }[] = [];
    for (const name of await readdir(folder)) {
      const file = path.join(folder, name);
      const stats = await stat(file).catch(() => undefined);
      if (stats === undefined) continue;
      if (name.endsWith(MEMO_SUFFIX)) memos.push({ file, size: stats.size, used: stats.mtimeMs });
      else if (now - stats.mtimeMs > ABANDONED_MS) await rm(file, { force: true });
    }
    let total = memos.reduce((sum, memo) => sum + memo.size, 0);
    for (const memo of memos.sort((a, b) => a.used - b.used)) {
      if (total <= this.settings.maxBytes) break;
      await rm(memo.file, { force: true });
      total -= memo.size;
    }
  }
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { writeHash } from '../../items/change-detection';
import {
  builtEvent,
  ImportEvent,
  ImportInputError,
  ImportSource,
  ItemProduced,
  ReadEvent,
} from '../formats/read-events';
import { unusualItemPerLine } from './testdata/test-readers';
import { WorkerFlow } from './worker-messages';
import { DEFAULT_FLOW, readInWorker, readsInWorker } from './worker-reading';
import { chunkedSource } from '../../../test/support/chunked-source';
import { openFilesIn } from '../../../test/support/open-handles';

const READERS = require.resolve('./testdata/test-readers');

function job(exportName: string, settings: unknown = {}) {
  return { module: READERS, exportName, settings };
}

/** `text` in chunks of `chunkSize` bytes, each a view into one shared buffer, as streams give them. */
function sourceOf(text: string, chunkSize = 7, tag = 'doc.txt'): ImportSource {
  return chunkedSource(text, tag, chunkSize);
}

/** A long source, one line per chunk, that counts the chunks taken from it and notes its end. */
function longSource() {
  const state = { taken: 0, closed: false };
  const source: ImportSource = {
    tag: 'long',
    async *bytes() {
      try {
        while (state.taken < 10_000) {
          state.taken += 1;
          yield Buffer.from(`line ${state.taken}\n`);
        }
      } finally {
        state.closed = true;
      }
    },
  };
  return { source, state };
}

async function collect(events: AsyncIterable<ImportEvent>): Promise<ReadEvent[]> {
  const collected: ReadEvent[] = [];
  for await (const event of events) collected.push(builtEvent(event));
  return collected;
}

function ids(events: readonly ReadEvent[]): string[] {
  return events.map((event) => (event as ItemProduced).write.bundle.id);
}

/** Time for the worker to read as far ahead as it may (the checks hold however little it read). */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 300));
}

describe('readsInWorker', () => {
  it('takes sources of the threshold size or more, every source when it is 0', () => {
    const ofSize = (size?: number): ImportSource => ({ tag: '-', size, bytes: sourceOf('').bytes });
    expect(readsInWorker(ofSize(100), 100)).toBe(true);
    expect(readsInWorker(ofSize(99), 100)).toBe(false);
    expect(readsInWorker(ofSize(undefined), 100)).toBe(false);
    expect(readsInWorker(ofSize(undefined), 0)).toBe(true);
  });
});

describe('readInWorker', () => {
  const flow: WorkerFlow = { ...DEFAULT_FLOW, eventsPerMessage: 7 };

  it('yields the events in order, over many messages', async () => {
    const lines = Array.from({ length: 1000 }, (_, index) => String(index));
    const events = await collect(
      readInWorker(sourceOf(lines.join('\n')), job('itemPerLine', { prefix: 'u' }), flow),
    );
    expect(ids(events)).toEqual(lines.map((line) => `u${line}`));
    expect(events.every((event) => event.tag === 'doc.txt')).toBe(true);
  });

  it("opens a source's file itself, without its bytes passing through this thread", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'worker-reading-'));
    try {
      const file = path.join(folder, 'doc.txt');
      await writeFile(file, 'x\ny\nz');
      const source: ImportSource = {
        ...sourceOf('not read'),
        file,
        bytes: () => {
          throw new Error('the bytes were read in the main thread');
        },
      };
      const events = await collect(readInWorker(source, job('itemPerLine', { prefix: 'f' }), flow));
      expect(ids(events)).toEqual(['fx', 'fy', 'fz']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('gives items their write hash while the consumer is behind, and only then', async () => {
    const behind: WorkerFlow = { eventsPerMessage: 1, messagesAhead: 1, bytesAhead: 1024 };
    const iterator = readInWorker(sourceOf('a\nb\nc'), job('itemPerLine', { prefix: '' }), behind);
    const first = (await iterator.next()).value as ItemProduced;
    // Meanwhile the worker has the second item and no message to spare: it hashes the item.
    await settle();
    const second = (await iterator.next()).value as ItemProduced;
    await iterator.return(undefined);
    expect(first.hash).toBeUndefined();
    expect(second.hash).toBe(writeHash(second.write.bundle, second.write.edges));
  });

  it('yields built items exactly as the function made them, but for the write hash it may add', async () => {
    const source = sourceOf(Array.from({ length: 50 }, (_, index) => `u${index}`).join('\n'));
    const expected = await collect(unusualItemPerLine(source));
    const events = (await collect(readInWorker(source, job('unusualItemPerLine'), flow))) as ItemProduced[];
    expect(events).toHaveLength(expected.length);
    expected.forEach((item, index) => {
      const { hash, write } = events[index];
      if (item.kind === 'item' && item.hash === undefined && hash !== undefined) {
        expect(hash).toBe(writeHash(write.bundle, write.edges));
        item.hash = hash;
      }
    });
    expect(events).toStrictEqual(expected);
    // Key order too: it is the order of the stored JSON.
    expect(JSON.stringify(events)).toBe(JSON.stringify(expected));
  });

  describe('with items left unbuilt', () => {
    const unbuilt = { ...job('unbuiltItemPerLine'), partBuilder: 'unbuiltLineBuilder' };
    const builders = (events: readonly ReadEvent[]) =>
      events.map((event) => (event as ItemProduced).write.bundle.data.builtBy);

    it('builds them on this thread, with the part builder the job names, while it keeps up', async () => {
      const events = await collect(readInWorker(sourceOf('a\nb\nc'), unbuilt, flow));
      expect(ids(events)).toEqual(['a', 'b', 'c']);
      expect(builders(events)).toEqual(['consumer', 'consumer', 'consumer']);
      expect(events.every((event) => (event as ItemProduced).hash === undefined)).toBe(true);
    });

    it('builds and hashes them in the worker once another message waits besides the one in use', async () => {
      const oneByOne: WorkerFlow = { eventsPerMessage: 1, messagesAhead: 3, bytesAhead: 1024 };
      const iterator = readInWorker(sourceOf('a\nb\nc\nd'), unbuilt, oneByOne);
      const events = [(await iterator.next()).value as ReadEvent];
      // Meanwhile the worker sends b, then finds a and b waiting: it builds c, and d for want of credit.
      await settle();
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
        events.push(builtEvent(next.value));
      }
      expect(builders(events)).toEqual(['consumer', 'consumer', 'worker', 'worker']);
      const { write, hash } = events[3] as ItemProduced;
      expect(hash).toBe(writeHash(write.bundle, write.edges));
    });

    it('fails when the job names no part builder', async () => {
      await expect(collect(readInWorker(sourceOf('a'), job('unbuiltItemPerLine'), flow))).rejects.toThrow(
        'left an item unbuilt but names no part builder',
      );
    });
  });

  it('throws an input error of the worker as an ImportInputError with its place, after the events before it', async () => {
    const events: ReadEvent[] = [];
    const reading = (async () => {
      for await (const event of readInWorker(sourceOf('a\nb\nbad\nc'), job('failAtBadLine'), flow))
        events.push(builtEvent(event));
    })();
    const error = await reading.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ImportInputError);
    expect(error).toMatchObject({
      message: 'Bad line in doc.txt at line 3, column 2',
      where: { tag: 'doc.txt', line: 3, column: 2 },
    });
    expect(ids(events)).toEqual(['a', 'b']);
  });

  it('throws any other error of the worker as an Error with its message', async () => {
    const error = await collect(readInWorker(sourceOf('a'), job('failWithBug'))).catch((thrown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ImportInputError);
    expect((error as Error).message).toBe('Cannot read a bug');
  });

  it("throws the source's own error as it is", async () => {
    const refused = new ImportInputError('The archive entry is damaged');
    const source: ImportSource = {
      tag: 'broken',
      async *bytes() {
        yield Buffer.from('a\n');
        throw refused;
      },
    };
    await expect(collect(readInWorker(source, job('itemPerLine', { prefix: '' })))).rejects.toBe(refused);
  });

  it('fails when the worker thread ends unexpectedly, or cannot find the function', async () => {
    await expect(collect(readInWorker(sourceOf('a'), job('exitThread')))).rejects.toThrow(
      'The reading worker stopped (exit code 3)',
    );
    await expect(collect(readInWorker(sourceOf('a'), job('noSuchReader')))).rejects.toThrow(
      'exports no function noSuchReader',
    );
  });

  it('ends the worker and stops reading the source when the consumer stops early', async () => {
    const terminate = jest.spyOn(Worker.prototype, 'terminate');
    try {
      const { source, state } = longSource();
      for await (const event of readInWorker(source, job('itemPerLine', { prefix: '' }), flow)) {
        expect(ids([builtEvent(event)])).toEqual(['line 1']);
        break;
      }
      expect(terminate).toHaveBeenCalledTimes(1);
      expect(state.closed).toBe(true);
    } finally {
      terminate.mockRestore();
    }
  });

  it("closes a source's file when the consumer stops early, whatever the worker had read", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'worker-reading-'));
    try {
      const file = path.join(folder, 'long.txt');
      // Far more than the worker reads ahead: it is in the middle of the file when it is ended.
      await writeFile(file, Array.from({ length: 200_000 }, (_, index) => `line ${index}`).join('\n'));
      const source: ImportSource = { ...sourceOf('not read'), file };
      for await (const event of readInWorker(source, job('itemPerLine', { prefix: '' }), flow)) {
        expect(ids([builtEvent(event)])).toEqual(['line 0']);
        await settle();
        // The worker is reading it now: what the check after is about.
        expect(openFilesIn(folder)).toEqual([file]);
        break;
      }
      expect(openFilesIn(folder)).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('reads no further ahead of the consumer than its flow allows', async () => {
    const { source, state } = longSource();
    const tight: WorkerFlow = { eventsPerMessage: 1, messagesAhead: 2, bytesAhead: 1 };
    const iterator = readInWorker(source, job('itemPerChunk'), tight);
    await iterator.next();
    await settle();
    // Three chunks read into events: one consumed, one sent ahead, one waiting for the first to
    // be acknowledged. Then one chunk sent, which waits, and one taken that waits for credit.
    expect(state.taken).toBeLessThanOrEqual(5);
    // Done with the first: one more event, so one more chunk.
    await iterator.next();
    await settle();
    expect(state.taken).toBeLessThanOrEqual(6);
    await iterator.return(undefined);
    expect(state.closed).toBe(true);
  });

  it('loads no Nest module in the worker to read EAD', async () => {
    const settings = { load: require.resolve('../formats/ead/ead-read'), pattern: '@nestjs' };
    const [event] = await collect(readInWorker(sourceOf(''), job('loadedModules', settings)));
    expect((event as ItemProduced).write.bundle.data.modules).toEqual([]);
  });
});

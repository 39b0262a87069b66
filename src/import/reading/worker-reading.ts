import { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../module-worker';
import { FlatItemReader } from './flat-items';
import { ImportEvent, ImportSource } from '../formats/read-events';
import {
  FromWorker,
  loadExport,
  PartBuilder,
  PartBuilderFactory,
  ReadJob,
  receivedError,
  SentEvents,
  ToWorker,
  WorkerFlow,
  WorkerInput,
} from './worker-messages';

/**
 * Reading a source in a worker thread, so that parsing (one core) runs beside the import run's
 * store lookups and writes (another), and building items on whichever has the time. The main
 * thread reads the source's bytes and passes them on; the worker runs the reader's pure function
 * and sends its events back.
 */

export const DEFAULT_FLOW: WorkerFlow = {
  // As many as the import run writes at once (`BATCH_SIZE`).
  eventsPerMessage: 100,
  // One message being written, the next ones ready: enough to keep both threads busy, while
  // items waiting in messages stay few (they are a batch's worth of memory each).
  messagesAhead: 3,
  // 16 chunks of a file stream: more than the worker reads while the main thread writes the
  // messages ahead. (Larger chunks of a source cost more memory and time than they save.)
  bytesAhead: 1024 * 1024,
};

/**
 * Whether a source is worth a worker: starting one has a cost of its own, so only a
 * source of `minBytes` or more is read in one; all are when `minBytes` is 0. A source of unknown
 * size is read in process.
 */
export function readsInWorker(source: ImportSource, minBytes: number): boolean {
  return minBytes === 0 || (source.size !== undefined && source.size >= minBytes);
}

function startWorker(source: ImportSource, job: ReadJob<unknown>, flow: WorkerFlow): Worker {
  const input: WorkerInput = { job, source: withoutBytes(source), flow };
  return startModuleWorker(require.resolve('./reading-worker'), input);
}

/** The main thread's side of one worker: sends it bytes as it asks, queues what it sends back. */
class WorkerReading {
  private readonly worker: Worker;
  private readonly received: SentEvents[] = [];
  private done = false;
  /** Whether this thread is still passing the source's bytes on. */
  private feeding: boolean;
  private stopped = false;
  private failure?: Error;
  /** Why the consumer cancelled the reading: thrown at once, before any events still queued. */
  private cancellation?: Error;
  /** Bytes that may be sent before the worker takes more. */
  private byteCredit: number;
  private wakeConsumer?: () => void;
  private wakePump?: () => void;
  private readonly pumping: Promise<void>;
  private readonly onRead?: (bytes: number) => void;

  constructor(source: ImportSource, job: ReadJob<unknown>, flow: WorkerFlow) {
    this.onRead = source.onRead;
    this.byteCredit = flow.bytesAhead;
    this.worker = startWorker(source, job, flow);
    this.worker.on('message', (message: FromWorker) => this.receive(message));
    this.worker.on('error', (error) => this.fail(new Error(`The reading worker failed: ${error.message}`)));
    this.worker.on('exit', (code) => {
      if (!this.done && !this.stopped) this.fail(new Error(`The reading worker stopped (exit code ${code})`));
    });
    // A file the worker opens itself; other bytes pass through this thread.
    this.feeding = source.file === undefined;
    this.pumping = this.feeding ? this.pump(source) : Promise.resolve();
  }

  /** The next message's events; undefined when the reader is done. Throws the reader's error. */
  async next(): Promise<SentEvents | undefined> {
    for (;;) {
      if (this.cancellation !== undefined) throw this.cancellation;
      const events = this.received.shift();
      if (events !== undefined) {
        await this.fed();
        return events;
      }
      if (this.failure !== undefined) throw this.failure;
      if (this.done) return undefined;
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    }
  }

  /**
   * Resolves once the worker has every byte its credit allows, or the source is read. This thread
   * reads the source only while its event loop turns, which it does not while the consumer is
   * busy with a message: before the consumer gets one, the worker gets the bytes to read meanwhile.
   */
  private async fed(): Promise<void> {
    const waiting = () =>
      this.feeding &&
      this.byteCredit > 0 &&
      this.failure === undefined &&
      this.cancellation === undefined &&
      !this.stopped;
    while (waiting()) {
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    }
  }

  /** The consumer has finished with the last message's events: the worker may send another. */
  acknowledge(): void {
    this.post({ type: 'ack' });
  }

  /** Makes the consumer's wait for events end now, with `reason`. */
  cancel(reason: Error): void {
    this.cancellation ??= reason;
    this.wakeConsumer?.();
  }

  /** Ends the worker, finished or not, and stops reading the source. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakePump?.();
    await this.worker.terminate();
    await this.pumping;
  }

  private receive(message: FromWorker): void {
    switch (message.type) {
      case 'consumed':
        this.byteCredit += message.bytes;
        this.wakePump?.();
        return;
      case 'read':
        this.onRead?.(message.bytes);
        return;
      case 'events':
        this.received.push(message);
        break;
      case 'done':
        this.done = true;
        break;
      case 'failed':
        this.failure ??= receivedError(message.error);
        break;
    }
    this.wakeConsumer?.();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wakeConsumer?.();
  }

  /** Sends the source's bytes as the worker's credit allows; a source's error is the reading's. */
  private async pump(source: ImportSource): Promise<void> {
    try {
      for await (const chunk of source.bytes()) {
        while (this.byteCredit <= 0 && !this.stopped) {
          await new Promise<void>((resolve) => (this.wakePump = resolve));
        }
        if (this.stopped) return;
        // A stream's chunks may share a pooled ArrayBuffer: each is copied to one of its own.
        const own = new Uint8Array(chunk);
        this.byteCredit -= own.length;
        this.worker.postMessage({ type: 'bytes', chunk: own } satisfies ToWorker, [own.buffer]);
        this.wakeConsumer?.();
      }
      this.post({ type: 'end' });
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.feeding = false;
      this.wakeConsumer?.();
    }
  }

  private post(message: ToWorker): void {
    if (!this.stopped) this.worker.postMessage(message);
  }
}

/** What builds the items the worker sends unbuilt: the job's `PartBuilder`, loaded on this thread. */
function partBuilder<S>(source: ImportSource, job: ReadJob<S>): PartBuilder {
  const { partBuilder: name } = job;
  if (name === undefined) {
    return () => {
      throw new Error(`${job.module} left an item unbuilt but names no part builder`);
    };
  }
  return loadExport<PartBuilderFactory<S>>(job, name)(job.settings, withoutBytes(source));
}

/** A source's description, which can cross to a worker: all but its bytes. */
function withoutBytes({ tag, contentType, size, file }: ImportSource): Omit<ImportSource, 'bytes'> {
  return { tag, contentType, size, file };
}

/**
 * Reads `source` with `job`'s function in a worker thread, yielding its events in order, as the
 * function would in process; the items it leaves unbuilt are built by the worker, when it has the
 * time, or else taken here by the job's part builder (which may defer them to the import run).
 * The worker reads ahead of the consumer by at most `flow`'s limits.
 * An `ImportInputError` in the worker is thrown here as one, with its place; any other error as an
 * `Error` with its message; an error of the source's own bytes as it is. The worker is ended when
 * the reading ends, however it ends (finished, failed, or the consumer stopped early). When
 * `signal` aborts (the import is cancelled), a wait for the worker's next events ends at once with
 * the signal's reason: the worker may be in the middle of a long stretch of the document.
 */
export async function* readInWorker<S>(
  source: ImportSource,
  job: ReadJob<S>,
  flow: WorkerFlow = DEFAULT_FLOW,
  signal?: AbortSignal,
): AsyncGenerator<ImportEvent> {
  const build = partBuilder(source, job);
  const items = new FlatItemReader();
  const reading = new WorkerReading(source, job, flow);
  const cancel = () => reading.cancel(signal!.reason as Error);
  signal?.addEventListener('abort', cancel);
  if (signal?.aborted) cancel();
  try {
    for (let sent = await reading.next(); sent !== undefined; sent = await reading.next()) {
      // A loop, not `yield*`: delegating to an array costs an extra await per event.
      for (const event of sent.events) {
        if (typeof event === 'number') yield items.read(sent.items, event);
        else yield Array.isArray(event) ? build(event) : event;
      }
      reading.acknowledge();
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    await reading.stop();
  }
}

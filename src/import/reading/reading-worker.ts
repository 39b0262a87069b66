import { createReadStream } from 'node:fs';
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { writeHash } from '../../items/change-detection';
import { FlatItemWriter } from './flat-items';
import { ImportSource, ReadEvent } from '../formats/read-events';
import {
  FromWorker,
  ItemPart,
  loadExport,
  ReadFunction,
  sentError,
  SentEvent,
  ToWorker,
  UnbuiltItem,
  WorkerFlow,
  WorkerInput,
  WorkerStart,
} from './worker-messages';

/**
 * The worker side of `readInWorker`: runs a reader's `ReadFunction` on the bytes the main thread
 * sends and sends its events back in messages, items built and with their change hash when this
 * thread has the time. Loaded only as a worker's entry (`worker-reading.ts` starts it).
 */

function send(port: MessagePort, message: FromWorker): void {
  port.postMessage(message);
}

/** The source's chunks as they arrive; each one taken for reading lets the main thread send more. */
class IncomingBytes {
  /** `undefined` marks the end. */
  private readonly chunks: (Uint8Array | undefined)[] = [];
  private wake?: () => void;

  constructor(private readonly port: MessagePort) {}

  receive(chunk: Uint8Array | undefined): void {
    this.chunks.push(chunk);
    this.wake?.();
  }

  async *read(): AsyncGenerator<Uint8Array> {
    for (;;) {
      while (this.chunks.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
      const chunk = this.chunks.shift();
      if (chunk === undefined) return;
      send(this.port, { type: 'consumed', bytes: chunk.length });
      yield chunk;
    }
  }
}

/**
 * Events, sent `eventsPerMessage` at a time. The reader waits while `messagesAhead` messages are
 * unacknowledged: it reads no further ahead of the consumer than that.
 */
class OutgoingEvents {
  private events: (ReadEvent | UnbuiltItem)[] = [];
  private readonly items = new FlatItemWriter();
  private credit: number;
  private wake?: () => void;

  constructor(
    private readonly port: MessagePort,
    private readonly flow: WorkerFlow,
  ) {
    this.credit = flow.messagesAhead;
  }

  /** Queues the event; true when a message's worth is queued, which `flush` should send. */
  add(event: ReadEvent | UnbuiltItem): boolean {
    return this.events.push(event) >= this.flow.eventsPerMessage;
  }

  async flush(): Promise<void> {
    if (this.events.length === 0) return;
    // A consumer that is behind (a commit, which writes) gets the items built and hashed, which
    // this thread does while it would wait anyway. One that keeps up (a re-import, which writes
    // little) builds and hashes them itself, while this thread reads on.
    const prepare = this.consumerBehind() ? finished : sendable;
    const items: unknown[] = [];
    const events = this.events.map((event) => this.sent(prepare(event), items));
    this.events = [];
    while (this.credit === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    this.credit -= 1;
    send(this.port, { type: 'events', events, items });
    // The reader keeps this thread busy while it has bytes: a turn of the event loop here takes
    // in the acknowledgements and bytes that have arrived, so that the count of messages ahead
    // is current and the main thread is asked for bytes in time.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** The event as it is sent; a built item is written to `items`. */
  private sent(event: ReadEvent | ItemPart, items: unknown[]): SentEvent {
    if (Array.isArray(event) || event.kind !== 'item') return event;
    const start = items.length;
    this.items.write(event, items);
    return start;
  }

  acknowledge(): void {
    this.credit += 1;
    this.wake?.();
  }

  /**
   * Whether the consumer is behind: another message waits besides the one it is on, or this
   * thread may send no more. (One that keeps up may still be on the last message now and then.)
   */
  private consumerBehind(): boolean {
    return this.credit === 0 || this.flow.messagesAhead - this.credit >= 2;
  }
}

/**
 * The event built, an item with its change hash (the reader's, else its write hash): done here,
 * so that the writing thread need not.
 */
function finished(event: ReadEvent | UnbuiltItem): ReadEvent {
  const built = event.kind === 'unbuilt' ? event.build() : event;
  if (built.kind === 'item') built.hash ??= writeHash(built.write.bundle, built.write.edges);
  return built;
}

/** The event as sent for the consumer to finish: an unbuilt item as its part. */
function sendable(event: ReadEvent | UnbuiltItem): ReadEvent | ItemPart {
  return event.kind === 'unbuilt' ? event.part() : event;
}

async function run(port: MessagePort, input: WorkerInput): Promise<void> {
  const bytes = new IncomingBytes(port);
  const events = new OutgoingEvents(port, input.flow);
  port.on('message', (message: ToWorker) => {
    if (message.type === 'ack') events.acknowledge();
    else bytes.receive(message.type === 'bytes' ? message.chunk : undefined);
  });
  const read = loadExport<ReadFunction<unknown>>(input.job, input.job.exportName);
  const { file } = input.source;
  const source: ImportSource = {
    ...input.source,
    bytes: () => (file === undefined ? bytes.read() : createReadStream(file)),
  };
  try {
    for await (const event of read(source, input.job.settings)) {
      // Not an await per event: most only join the next message.
      if (events.add(event)) await events.flush();
    }
  } finally {
    // Read in process, the events before a failure reach the run before the error does.
    await events.flush();
  }
}

if (parentPort === null) throw new Error('reading-worker runs only as a worker thread');
const port = parentPort;
run(port, (workerData as WorkerStart).input).then(
  () => send(port, { type: 'done' }),
  (error: unknown) => send(port, { type: 'failed', error: sentError(error) }),
);

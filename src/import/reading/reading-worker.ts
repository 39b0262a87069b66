import { createReadStream } from 'node:fs';
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { writeHash } from '../../items/change-detection';
import { ImportSource, ReadEvent } from '../formats/read-events';
import {
  FromWorker,
  ReadFunction,
  ReadJob,
  sentError,
  ToWorker,
  WorkerFlow,
  WorkerInput,
  WorkerStart,
} from './worker-messages';

/**
 * The worker side of `readInWorker`: runs a reader's `ReadFunction` on the bytes the main thread
 * sends and sends its events back in messages, items with their write hash when this thread has
 * the time. Loaded only as a worker's entry (`worker-reading.ts` starts it).
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
  private events: ReadEvent[] = [];
  private credit: number;
  private wake?: () => void;

  constructor(
    private readonly port: MessagePort,
    private readonly flow: WorkerFlow,
  ) {
    this.credit = flow.messagesAhead;
  }

  async add(event: ReadEvent): Promise<void> {
    this.events.push(event);
    if (this.events.length >= this.flow.eventsPerMessage) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.events.length === 0) return;
    // The consumer is behind, so this thread would wait: it hashes the items meanwhile, which the
    // consumer then need not. A consumer that keeps up (a re-import, which writes little) hashes
    // them itself, while this thread reads on.
    if (this.credit === 0) this.events.forEach(addHash);
    while (this.credit === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    this.credit -= 1;
    const events = this.events;
    this.events = [];
    send(this.port, { type: 'events', events });
    // The reader keeps this thread busy while it has bytes: a turn of the event loop here takes
    // in the acknowledgements and bytes that have arrived, so that the count of messages ahead
    // is current and the main thread is asked for bytes in time.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  acknowledge(): void {
    this.credit += 1;
    this.wake?.();
  }
}

/** Computes the item's write hash here, on the reading thread, so that the writing one need not. */
function addHash(event: ReadEvent): void {
  if (event.kind === 'item') event.hash ??= writeHash(event.write.bundle, event.write.edges);
}

function loadReader(job: ReadJob<unknown>): ReadFunction<unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = (require(job.module) as Record<string, unknown>)[job.exportName];
  if (typeof exported !== 'function') throw new Error(`${job.module} exports no function ${job.exportName}`);
  return exported as ReadFunction<unknown>;
}

async function run(port: MessagePort, input: WorkerInput): Promise<void> {
  const bytes = new IncomingBytes(port);
  const events = new OutgoingEvents(port, input.flow);
  port.on('message', (message: ToWorker) => {
    if (message.type === 'ack') events.acknowledge();
    else bytes.receive(message.type === 'bytes' ? message.chunk : undefined);
  });
  const read = loadReader(input.job);
  const { file } = input.source;
  const source: ImportSource = {
    ...input.source,
    bytes: () => (file === undefined ? bytes.read() : createReadStream(file)),
  };
  try {
    for await (const event of read(source, input.job.settings)) await events.add(event);
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

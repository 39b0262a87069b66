import cluster, { Worker } from 'node:cluster';

/**
 * Asking every HTTP worker process for a value (`HTTP_WORKERS` > 1), such as its metrics: a request
 * reaches one worker, but what it asks about is spread over all of them. The asking worker sends
 * the topic to the primary, the primary asks every live worker, and sends back their answers.
 */

type GatherMessage =
  /** Worker → primary: gather `topic` from every worker. */
  | { gather: 'request'; id: number; topic: string }
  /** Primary → each worker: answer `topic`. */
  | { gather: 'ask'; id: number; topic: string }
  /** Worker → primary: its answer; none from a worker that has nothing to answer with (yet). */
  | { gather: 'answer'; id: number; value: unknown }
  /** Primary → the asking worker: every answer that came. */
  | { gather: 'result'; id: number; values: unknown[] };

/** How long the primary waits for the workers' answers; a worker that does not answer is left out. */
const GATHER_TIMEOUT_MS = 2000;

function isGatherMessage(message: unknown): message is GatherMessage {
  return typeof message === 'object' && message !== null && 'gather' in message;
}

// ---------------------------------------------------------------------------------------------
// Worker side.

const answerers = new Map<string, () => unknown>();
const waiting = new Map<number, (values: unknown[]) => void>();
let lastId = 0;
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  process.on('message', (message: unknown) => {
    if (!isGatherMessage(message)) return;
    if (message.gather === 'ask') {
      const answer = answerers.get(message.topic);
      process.send?.({ gather: 'answer', id: message.id, value: answer?.() } satisfies GatherMessage);
    } else if (message.gather === 'result') {
      waiting.get(message.id)?.(message.values);
      waiting.delete(message.id);
    }
  });
}

/** Answers `topic` with `answer()` when the primary asks this worker. */
export function answerGather(topic: string, answer: () => unknown): void {
  if (!cluster.isWorker) return;
  answerers.set(topic, answer);
  listen();
}

/**
 * Every worker's answer to `topic`, this one's included; outside a cluster worker, `local()` alone.
 * Answers come in no particular order.
 */
export function gatherFromWorkers<T>(topic: string, local: () => T): Promise<T[]> {
  if (!cluster.isWorker) return Promise.resolve([local()]);
  listen();
  const id = ++lastId;
  return new Promise((resolve) => {
    waiting.set(id, (values) => resolve(values as T[]));
    process.send?.({ gather: 'request', id, topic } satisfies GatherMessage);
  });
}

// ---------------------------------------------------------------------------------------------
// Primary side.

interface Gathering {
  asker: Worker;
  /** The asker's id for its request. */
  requestId: number;
  /** Ids of the workers whose answers are still due. */
  due: Set<number>;
  values: unknown[];
  timer: NodeJS.Timeout;
}

/**
 * The primary's part: relays gather requests between the workers. Call once, in the primary. A
 * worker that exits is no longer waited for.
 */
export function relayGathers(): void {
  // By the primary's own ids: two workers may ask with the same id of theirs.
  const gatherings = new Map<number, Gathering>();
  let lastGathering = 0;
  const finish = (id: number) => {
    const gathering = gatherings.get(id);
    if (gathering === undefined) return;
    gatherings.delete(id);
    clearTimeout(gathering.timer);
    if (!gathering.asker.isConnected()) return;
    const result: GatherMessage = { gather: 'result', id: gathering.requestId, values: gathering.values };
    gathering.asker.send(result);
  };
  /** `worker` is done with gathering `id`: it answered `value`, or nothing (undefined). */
  const received = (id: number, worker: Worker, value?: unknown) => {
    const gathering = gatherings.get(id);
    if (gathering === undefined || !gathering.due.delete(worker.id)) return;
    if (value !== undefined) gathering.values.push(value);
    if (gathering.due.size === 0) finish(id);
  };
  cluster.on('message', (worker, message: unknown) => {
    if (!isGatherMessage(message)) return;
    if (message.gather === 'answer') return received(message.id, worker, message.value);
    if (message.gather !== 'request') return;
    const id = ++lastGathering;
    const workers = Object.values(cluster.workers ?? {}).filter(
      (candidate): candidate is Worker => candidate?.isConnected() === true,
    );
    gatherings.set(id, {
      asker: worker,
      requestId: message.id,
      due: new Set(workers.map((candidate) => candidate.id)),
      values: [],
      timer: setTimeout(() => finish(id), GATHER_TIMEOUT_MS),
    });
    const ask: GatherMessage = { gather: 'ask', id, topic: message.topic };
    for (const candidate of workers) candidate.send(ask);
  });
  cluster.on('exit', (worker) => {
    for (const id of [...gatherings.keys()]) received(id, worker);
  });
}

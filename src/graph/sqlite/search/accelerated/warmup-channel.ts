import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { WarmedSearch, WarmupPlan } from './search-warmup';

/**
 * How long a writer waits for a serving store's answer before it commits without warming it: that
 * store answers at once unless its thread has died, and is then forgotten.
 */
const ANSWER_TIMEOUT_MS = 5_000;

/**
 * What the stores of one file tell each other across the threads of a process (the import worker's
 * store and the serving thread's), on a channel named by the file.
 */
type WarmupMessage =
  /** A store answers searches (told when it starts to, and to a store that asks). */
  | { type: 'serving'; store: string }
  /** A store that has just opened asks which stores answer searches. */
  | { type: 'who-serves' }
  | { type: 'closed'; store: string }
  /** A writer about to commit asks a serving store what its searches read last. */
  | { type: 'plan?'; to: string; request: string }
  | { type: 'plan'; request: string; plan?: WarmupPlan }
  /** What the writer read for that store at the version it commits. */
  | { type: 'warmed'; to: string; request: string; warmed: WarmedSearch }
  /** The serving store keeps it: the writer may commit. */
  | { type: 'taken'; request: string };

/** What a store that answers searches gives and takes on the channel. */
export interface ServingStore {
  /** What its searches would read first at the next version; undefined when nothing. */
  plan(): WarmupPlan | undefined;
  /** Keeps what a writer read by that plan, for the version the writer commits. */
  accept(warmed: WarmedSearch): void;
}

/**
 * The SQLite adapter's own way to have a writer elsewhere in the process (the import worker's
 * store) warm the search caches of the store that answers searches before it commits, so that
 * neither the import code nor the store port knows of it.
 */
export class WarmupChannel {
  private readonly channel: BroadcastChannel;
  private readonly id = randomUUID();
  private serving = false;
  private closed = false;
  /** The stores of other threads that answer searches. */
  private readonly servingElsewhere = new Set<string>();
  /** Requests awaiting an answer, by id: the store asked, and what takes its answer. */
  private readonly waiting = new Map<
    string,
    { store: string; answer: (reply: WarmupMessage | undefined) => void }
  >();

  constructor(
    file: string,
    private readonly store: ServingStore,
  ) {
    this.channel = new BroadcastChannel(`sqlite-search-warmup:${path.resolve(file)}`);
    // The channel never keeps a process alive on its own.
    this.channel.unref();
    this.channel.onmessage = (event) => this.receive(event.data as WarmupMessage);
    this.post({ type: 'who-serves' });
  }

  /** From now on this store takes what writers elsewhere read for it. */
  serve(): void {
    if (this.serving) return;
    this.serving = true;
    this.post({ type: 'serving', store: this.id });
  }

  /**
   * Has each store that answers searches elsewhere warmed by `read` (run inside the caller's write,
   * at the version it commits): asks its plan, reads it, hands the result over, and resolves once
   * every such store keeps it. A store that does not answer in time is left out and forgotten.
   */
  async warmOthers(read: (plan: WarmupPlan) => Promise<WarmedSearch>): Promise<void> {
    for (const store of [...this.servingElsewhere]) {
      const answer = await this.ask(store, (request) => ({ type: 'plan?', to: store, request }));
      if (answer?.type !== 'plan' || answer.plan === undefined) continue;
      const warmed = await read(answer.plan);
      await this.ask(store, (request) => ({ type: 'warmed', to: store, request, warmed }));
    }
  }

  close(): void {
    if (this.closed) return;
    if (this.serving) this.post({ type: 'closed', store: this.id });
    this.closed = true;
    for (const { answer } of [...this.waiting.values()]) answer(undefined);
    this.channel.close();
  }

  /** Sends what `message` makes of a new request's id; resolves with the answer, or undefined. */
  private ask(
    store: string,
    message: (request: string) => WarmupMessage,
  ): Promise<WarmupMessage | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    const request = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.servingElsewhere.delete(store);
        answer(undefined);
      }, ANSWER_TIMEOUT_MS);
      timer.unref();
      const answer = (reply: WarmupMessage | undefined) => {
        clearTimeout(timer);
        this.waiting.delete(request);
        resolve(reply);
      };
      this.waiting.set(request, { store, answer });
      this.post(message(request));
    });
  }

  private receive(message: WarmupMessage): void {
    switch (message.type) {
      case 'who-serves':
        if (this.serving) this.post({ type: 'serving', store: this.id });
        return;
      case 'serving':
        this.servingElsewhere.add(message.store);
        return;
      case 'closed':
        this.servingElsewhere.delete(message.store);
        // A writer waiting on it commits without it.
        for (const { store, answer } of [...this.waiting.values()])
          if (store === message.store) answer(undefined);
        return;
      case 'plan?':
        if (message.to === this.id)
          this.post({ type: 'plan', request: message.request, plan: this.store.plan() });
        return;
      case 'warmed':
        if (message.to !== this.id) return;
        this.store.accept(message.warmed);
        this.post({ type: 'taken', request: message.request });
        return;
      case 'plan':
      case 'taken':
        this.waiting.get(message.request)?.answer(message);
        return;
    }
  }

  private post(message: WarmupMessage): void {
    if (!this.closed) this.channel.postMessage(message);
  }
}

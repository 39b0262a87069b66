import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { GraphStore } from '../graph/graph-store';

/** A store that has not answered by then counts as not answering, so that probes get an answer. */
const STORE_CHECK_TIMEOUT_MS = 3000;

/**
 * Whether the store can serve, for readiness: checked at start (the SQLite store runs its
 * integrity quick check as it opens, and tries a write) and whenever asked. What keeps it from
 * serving is logged when it is first found and when it is gone, with the reasons.
 */
@Injectable()
export class StoreHealth implements OnApplicationBootstrap {
  private readonly logger = new Logger(StoreHealth.name);
  private reported: string[] = [];

  constructor(private readonly store: GraphStore) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.problems();
  }

  /** What keeps the store from serving now, in words for operators; empty when nothing does. */
  async problems(): Promise<string[]> {
    const timedOut = sleep(STORE_CHECK_TIMEOUT_MS, undefined, { ref: false }).then(() => [
      `the store did not answer within ${STORE_CHECK_TIMEOUT_MS} ms`,
    ]);
    const problems = await Promise.race([
      this.store
        .problems()
        .catch((error: unknown) => [`the store does not answer: ${(error as Error).message}`]),
      timedOut,
    ]);
    this.report(problems);
    return problems;
  }

  private report(problems: string[]): void {
    if (problems.join('\n') === this.reported.join('\n')) return;
    this.reported = problems;
    if (problems.length > 0) {
      this.logger.error({ problems, msg: `The store is not ready: ${problems.join('; ')}` });
    } else {
      this.logger.log('The store is ready');
    }
  }
}

import { setTimeout as sleep } from 'node:timers/promises';

const FIRST_RETRY_MS = 2;
const LONGEST_RETRY_MS = 100;

/**
 * By its code, not its class: where modules are loaded afresh for each file (Jest), an error may
 * come from another load of better-sqlite3 than the class this module sees.
 */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `attempt` until it gets past another process's lock, waiting asynchronously between tries
 * (a little longer each time) so that the event loop keeps serving meanwhile. There is no bound: a
 * writer waits its turn, as the port promises, however long another process's import writes. What
 * must not wait for an import (a token's write) is kept out of the store (`SqliteTokenStore`).
 */
export async function whenNotBusy<T>(attempt: () => T): Promise<T> {
  for (let delay = FIRST_RETRY_MS; ; delay = Math.min(delay * 2, LONGEST_RETRY_MS)) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error)) throw error;
      await sleep(delay);
    }
  }
}

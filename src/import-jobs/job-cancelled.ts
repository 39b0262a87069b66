/** Why a job stopped before its end: a cancel request, or a shutdown (its message says which). */
export class JobCancelled extends Error {
  override readonly name = 'JobCancelled';
}

/** Rejects with the signal's reason once it aborts (at once if it has). */
export function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

/**
 * Refusals of a store that the service answers in its own terms rather than as server faults.
 * Stores throw them; the import maps them to HTTP statuses (`import/storage-full.ts`).
 */

/** A write transaction the store refused more memory: nothing of it was written. */
export class TransactionTooLargeError extends Error {
  override readonly name = 'TransactionTooLargeError';

  constructor(
    message: string,
    /** The store's setting that bounds it, which an operator may raise. */
    readonly setting: string,
    /** The limit as the store said it (`1.4 GiB`), when it said it. */
    readonly limit: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The store does not answer (down, unreachable): nothing was written. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

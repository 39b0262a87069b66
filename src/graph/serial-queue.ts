/** Runs tasks one at a time, in the order they were queued: an async mutex. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Tasks queued or running. */
  get length(): number {
    return this.pending;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(task).finally(() => this.pending--);
    // The next task waits for this one to settle, whether it succeeded or not.
    this.tail = result.catch(() => undefined);
    return result;
  }
}

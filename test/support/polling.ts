/** Polls `read` until `holds` says yes, or fails after `timeoutMs` with what it last read. */
export async function until<T>(
  what: string,
  read: () => Promise<T> | T,
  holds: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

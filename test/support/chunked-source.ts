import { ImportSource } from '../../src/import/formats/read-events';

/** A source whose bytes arrive in chunks of `chunkSize`, as a stream delivers a body. */
export function chunkedSource(content: string | Buffer, tag: string, chunkSize: number): ImportSource {
  const bytes = Buffer.from(content);
  return {
    tag,
    async *bytes() {
      for (let start = 0; start < bytes.length; start += chunkSize)
        yield bytes.subarray(start, start + chunkSize);
    },
  };
}

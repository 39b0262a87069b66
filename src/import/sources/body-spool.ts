import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { badRequest, ImportHttpError, tooLarge } from '../import-errors';

/**
 * Bytes the spool file's stream holds before it asks the body to wait. With the stream's default,
 * each chunk of the body waited for its own write; with writes in flight while the next chunks
 * arrive, a large body spools faster.
 */
const SPOOL_BUFFER_BYTES = 1024 * 1024;

/** A body of unknown length reserves room in the import queue by steps of this many bytes. */
const RESERVE_STEP_BYTES = 1024 * 1024;

function overLimit(maxBytes: number): ImportHttpError {
  return tooLarge(`The request body is larger than the limit of ${maxBytes} bytes (IMPORT_MAX_BODY_BYTES)`);
}

/** A spooled body: its length. */
export interface SpooledBody {
  size: number;
}

/**
 * A write to the spool file failed (a full disk, a file size limit): the body was not stored
 * whole, which is the service's fault and never the document's.
 */
export class SpoolWriteError extends Error {
  constructor(
    readonly file: string,
    override readonly cause: Error,
  ) {
    super(`The request body could not be stored: ${cause.message}`);
    this.name = 'SpoolWriteError';
  }
}

/**
 * Writes the request body to `file`, so that a large body is never held in memory, and returns its
 * size. A body over `maxBytes` is refused (413): at once when `Content-Length`
 * says so, otherwise when the limit is crossed; from then on the rest is read and dropped rather
 * than the connection torn down, so that the client still receives the answer.
 *
 * A body of unknown length asks `reserve` for room (in the import queue) as it arrives, before its
 * bytes are written; once it refuses, the rest is read and dropped likewise, and this throws the
 * refusal.
 *
 * It settles whatever happens to the request: a body cut short (the client gone, broken chunked
 * framing, Node's request time-out), even before this started to read it, is a 400, and a failed
 * write is a `SpoolWriteError`. Either way the file is closed, never read as if whole.
 */
export async function spoolBody(
  request: IncomingMessage,
  file: string,
  maxBytes: number,
  reserve?: (bytes: number) => Promise<void>,
): Promise<SpooledBody> {
  if (Number(request.headers['content-length']) > maxBytes) throw overLimit(maxBytes);
  let size = 0;
  let reserved = Number(request.headers['content-length']) || 0;
  let refusal: Error | undefined;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (refusal === undefined && size > maxBytes) refusal = overLimit(maxBytes);
      if (refusal !== undefined) return done();
      if (reserve === undefined || size <= reserved) return done(null, chunk);
      const asked = Math.ceil(size / RESERVE_STEP_BYTES) * RESERVE_STEP_BYTES;
      reserve(asked).then(
        () => {
          reserved = asked;
          done(null, chunk);
        },
        (error: Error) => {
          refusal = error;
          done();
        },
      );
    },
  });
  const out = createWriteStream(file, { highWaterMark: SPOOL_BUFFER_BYTES });
  let writeError: Error | undefined;
  out.once('error', (error) => (writeError = error));
  // Not in the pipeline: a failed write must leave the request readable, so that the client is
  // answered, not cut off.
  let readError: Error | undefined;
  request.pipe(meter);
  finished(request).catch((error: Error) => {
    readError = error;
    meter.destroy(error);
  });
  try {
    await pipeline(meter, out);
  } catch (error) {
    // A body cut short reaches the file's stream too, as the error it is destroyed with.
    if (readError === undefined && writeError !== undefined) {
      // The rest is read and dropped: Node drops an unread body once answered, but not one read in
      // part, and would close the connection under a client still sending it.
      request.unpipe(meter);
      request.resume();
      throw new SpoolWriteError(file, writeError);
    }
    throw badRequest(`The request body could not be read whole: ${(error as Error).message}`);
  }
  if (refusal !== undefined) throw refusal;
  return { size };
}

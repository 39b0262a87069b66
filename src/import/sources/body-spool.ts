import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { badRequest, ImportHttpError, tooLarge } from '../import-errors';

/**
 * Bytes the spool file's stream holds before it asks the body to wait. With the stream's default,
 * each chunk of the body waited for its own write; with writes in flight while the next chunks
 * arrive, a large body spools faster.
 */
const SPOOL_BUFFER_BYTES = 1024 * 1024;

function overLimit(maxBytes: number): ImportHttpError {
  return tooLarge(`The request body is larger than the limit of ${maxBytes} bytes (IMPORT_MAX_BODY_BYTES)`);
}

/** A spooled body: its length. */
export interface SpooledBody {
  size: number;
}

/**
 * Writes the request body to `file`, so that a large body is never held in memory, and returns its
 * size. A body over `maxBytes` is refused (413): at once when `Content-Length`
 * says so, otherwise when the limit is crossed; from then on the rest is read and dropped rather
 * than the connection torn down, so that the client still receives the answer.
 */
export function spoolBody(request: IncomingMessage, file: string, maxBytes: number): Promise<SpooledBody> {
  if (Number(request.headers['content-length']) > maxBytes) return Promise.reject(overLimit(maxBytes));
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file, { highWaterMark: SPOOL_BUFFER_BYTES });
    let size = 0;
    let refusal: ImportHttpError | undefined;
    const fail = (error: Error) => {
      out.destroy();
      reject(
        error instanceof ImportHttpError
          ? error
          : badRequest(`The request body could not be read: ${error.message}`),
      );
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (refusal === undefined && size > maxBytes) refusal = overLimit(maxBytes);
      if (refusal !== undefined) return;
      if (!out.write(chunk)) {
        request.pause();
        out.once('drain', () => request.resume());
      }
    });
    request.on('end', () => out.end(() => (refusal === undefined ? resolve({ size }) : reject(refusal))));
    request.on('error', fail);
    out.on('error', fail);
  });
}

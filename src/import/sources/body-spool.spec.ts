import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ImportHttpError } from '../import-errors';
import { spoolBody, SpoolWriteError } from './body-spool';

/** A request body the test writes to, as Node's request would deliver it. */
function requestOf(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

describe('spoolBody', () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'spool-spec-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('stores the body whole, with its size', async () => {
    const request = requestOf();
    const file = path.join(folder, 'body');
    const spooled = spoolBody(request, file, 100);
    request.end('hello');
    await expect(spooled).resolves.toEqual({ size: 5 });
    expect(await readFile(file, 'utf8')).toBe('hello');
  });

  it('fails with the write error when the disk is full, and reads and drops the rest', async () => {
    const request = requestOf();
    // Linux's /dev/full refuses every write with ENOSPC, as a full file system does.
    const spooled = spoolBody(request, '/dev/full', 1 << 20);
    request.write(Buffer.alloc(64 * 1024));
    const error = (await spooled.catch((thrown: unknown) => thrown)) as SpoolWriteError;
    expect(error).toBeInstanceOf(SpoolWriteError);
    expect(error.file).toBe('/dev/full');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ENOSPC');
    // The client is still there to be answered, and may still be sending: the rest is read.
    expect(request.destroyed).toBe(false);
    request.end(Buffer.alloc(256 * 1024));
    await finished(request);
    expect(request.readableEnded).toBe(true);
  });

  it('fails with a 400 when the body is cut short, also before it began to be read', async () => {
    const early = requestOf();
    early.destroy(new Error('aborted'));
    await expect(spoolBody(early, path.join(folder, 'early'), 100)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('could not be read whole'),
    });
    const late = requestOf();
    const spooled = spoolBody(late, path.join(folder, 'late'), 100);
    late.write('par');
    late.destroy();
    const error = await spooled.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ImportHttpError);
    expect((error as ImportHttpError).getStatus()).toBe(400);
  });

  it('refuses a body over the limit after reading it to the end', async () => {
    const request = requestOf();
    const spooled = spoolBody(request, path.join(folder, 'big'), 4);
    request.end('too long');
    await expect(spooled).rejects.toMatchObject({ status: 413 });
    expect(request.readableEnded).toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openFilesIn } from '../../../test/support/open-handles';
import { archiveSources } from './archive-sources';
import { ImportWorkspace } from './workspace';

const LIMITS = { maxEntries: 100, maxBytes: 10 * 2 ** 20 };

describe('archiveSources', () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'archive-sources-'));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('closes a tar.gz it refuses before reading it to the end', async () => {
    const body = path.join(folder, 'body');
    // gzip's magic number, then bytes that are no deflate stream: refused at the first chunk, long
    // before the end of the file.
    await writeFile(body, Buffer.concat([Buffer.from([0x1f, 0x8b]), randomBytes(2 * 2 ** 20)]));
    await expect(archiveSources(body, ImportWorkspace.open(folder, 'entry-'), LIMITS)).rejects.toThrow(
      /Invalid tar archive/,
    );
    // A stream destroyed closes its file on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openFilesIn(folder)).toEqual([]);
  });
});

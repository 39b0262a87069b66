import { loadConfig } from '../../../config/app-config';
import { ImportInputError, ImportSource } from '../format-reader';
import { EadReader } from './ead.reader';
import { contextOf, fixture, inProcess, items, read, sourceOf } from '../../../../test/support/ead-reading';

describe('EadReader: reading as a stream, in process or in a worker', () => {
  it('emits units while the document is still being read', async () => {
    let chunksRead = 0;
    const source: ImportSource = {
      tag: 'large.xml',
      async *bytes() {
        yield Buffer.from('<ead><archdesc><did><unitid>top</unitid></did><dsc>');
        for (let index = 0; index < 2000; index++) {
          chunksRead += 1;
          yield Buffer.from(
            `<c01><did><unitid>u${index}</unitid><unittitle>Unit ${index}</unittitle></did></c01>`,
          );
        }
        yield Buffer.from('</dsc></archdesc></ead>');
      },
    };
    let readAtFirstUnit: number | undefined;
    let units = 0;
    for await (const event of inProcess.read(source, contextOf())) {
      readAtFirstUnit ??= chunksRead;
      units += event.kind === 'item' ? 1 : 0;
    }
    expect(units).toBe(2001);
    expect(readAtFirstUnit).toBeLessThan(5);
  });

  it('fails on malformed XML with the tag, line and column', async () => {
    const truncated = fixture('ead.xml').subarray(0, 1500);
    const lines = truncated.toString().split('\n');
    await expect(read(sourceOf(truncated, 'ead.xml'))).rejects.toMatchObject({
      name: 'ImportInputError',
      where: { tag: 'ead.xml', line: lines.length, column: lines[lines.length - 1].length + 1 },
    });
  });

  it('needs a scope', async () => {
    const context = { ...contextOf(), scope: undefined };
    await expect(read(sourceOf(fixture('ead.xml')), context)).rejects.toThrow(ImportInputError);
  });

  describe('in a worker thread', () => {
    const inWorker = new EadReader(loadConfig({ IMPORT_WORKER_MIN_BYTES: '0' }));

    it('produces the events it produces in process, items with the same change hashes', async () => {
      const source = () => sourceOf(fixture('comprehensive-ead.xml'));
      const expected = await read(source());
      const events = await read(source(), contextOf(), inWorker);
      expect(items(expected).every((item) => item.hash !== undefined)).toBe(true);
      expect(events).toEqual(expected);
    });

    it('fails on malformed XML with the tag, line and column it names in process', async () => {
      const truncated = sourceOf(fixture('ead.xml').subarray(0, 1500), 'ead.xml');
      const failure = await read(truncated, contextOf(), inWorker).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ImportInputError);
      await expect(read(truncated)).rejects.toEqual(failure);
      expect(failure).toMatchObject({ where: { tag: 'ead.xml', line: expect.any(Number) } });
    });
  });
});

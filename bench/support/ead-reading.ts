import { createReadStream } from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { loadConfig } from '../../src/config/app-config';
import type { ItemWrite } from '../../src/graph/graph-store';
import { EadReader } from '../../src/import/formats/ead/ead.reader';

/** The EAD benchmark's reading without the service: a bare parse, the reader alone, its items. */

/** `file` as an import source, read in chunks of `chunkBytes`. */
export function eadFileSource(file: string, chunkBytes: number) {
  return { tag: path.basename(file), bytes: () => createReadStream(file, { highWaterMark: chunkBytes }) };
}

/** Where the benchmark reads its document into, and in what chunks. */
export interface ReadingSetUp {
  repository: string;
  user: string;
  chunkBytes: number;
}

/** A bare saxes parse of `file`: the floor every import is measured against. */
export async function parseOnly(file: string, chunkBytes: number): Promise<Record<string, unknown>> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of eadFileSource(file, chunkBytes).bytes())
    parser.write(decoder.decode(chunk as Buffer, { stream: true }));
  parser.close();
  return {};
}

/** The EAD reader's events for `file`, as the import run gets them. */
async function* eadEvents(file: string, setUp: ReadingSetUp) {
  const config = loadConfig({});
  const { maxDepth, maxIdLength } = config.import;
  const context = {
    params: {
      tolerant: false,
      allowUpdate: false,
      lang: 'eng',
      tag: '-',
      useSourceId: false,
      query: {},
      limits: { maxDepth, maxIdLength },
    },
    scope: {
      bundle: { id: setUp.repository, type: 'Repository' as const, data: {}, relations: {} },
      edges: {},
      hash: '',
      updated: '',
      ancestors: [],
      identifiers: ['nl', setUp.repository],
    },
    user: setUp.user,
    store: {} as never,
  };
  // A source of unknown size: read in process, as the reader alone.
  yield* new EadReader(config).read(eadFileSource(file, setUp.chunkBytes), context);
}

/** The EAD reader alone over `file`: how many items it reads. */
export async function readOnly(file: string, setUp: ReadingSetUp): Promise<Record<string, unknown>> {
  let items = 0;
  for await (const event of eadEvents(file, setUp)) items += event.kind === 'item' ? 1 : 0;
  return { items };
}

/** Each item the EAD reader builds from `file`, as the import writes it. */
export async function* readItems(file: string, setUp: ReadingSetUp): AsyncGenerator<ItemWrite> {
  for await (const read of eadEvents(file, setUp)) {
    const event = read.kind === 'deferred' ? read.build() : read;
    if (event.kind === 'item') yield { ...event.write, hash: event.hash ?? '' };
  }
}

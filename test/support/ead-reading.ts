import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { Bundle } from '../../src/items/bundle';
import { ItemType } from '../../src/items/item-types';
import {
  ImportContext,
  ImportSource,
  ItemProduced,
  ItemRejected,
  ReadEvent,
} from '../../src/import/formats/format-reader';
import { builtEvent } from '../../src/import/formats/read-events';
import { EadReader } from '../../src/import/formats/ead/ead.reader';
import { chunkedSource } from './chunked-source';
import { EHRI_FIXTURES } from './fixture-paths';

/** What the EAD reader's specs share: the reference's files, a scope, and the events read. */

export function fixture(name: string): Buffer {
  return readFileSync(path.join(EHRI_FIXTURES, name));
}

export function sourceOf(content: string | Buffer, tag = 'doc.xml', chunkSize = 4096): ImportSource {
  return chunkedSource(content, tag, chunkSize);
}

export interface ContextOptions {
  lang?: string;
  properties?: string;
  query?: Record<string, string>;
  scope?: { id: string; type: ItemType; identifiers: string[] };
}

export function contextOf(options: ContextOptions = {}): ImportContext {
  const scope = options.scope ?? { id: 'nl-r1', type: 'Repository', identifiers: ['nl', 'r1'] };
  return {
    params: {
      tolerant: false,
      allowUpdate: false,
      lang: options.lang ?? 'eng',
      tag: '-',
      useSourceId: false,
      properties: options.properties,
      query: options.query ?? {},
      limits: { maxDepth: 64, maxIdLength: 1024 },
    },
    scope: {
      bundle: { id: scope.id, type: scope.type, data: {}, relations: {} },
      edges: {},
      hash: '',
      updated: '',
      ancestors: [],
      identifiers: scope.identifiers,
    },
    user: 'tester',
    store: {} as ImportContext['store'],
  };
}

/** The reader as configured by default: a source of unknown size is read in process. */
export const inProcess = new EadReader(loadConfig({}));

export async function read(
  source: ImportSource,
  context = contextOf(),
  reader = inProcess,
): Promise<ReadEvent[]> {
  const events: ReadEvent[] = [];
  for await (const event of reader.read(source, context)) events.push(builtEvent(event));
  return events;
}

export function items(events: readonly ReadEvent[]): ItemProduced[] {
  return events.filter((event): event is ItemProduced => event.kind === 'item');
}

export function rejections(events: readonly ReadEvent[]): ItemRejected[] {
  return events.filter((event): event is ItemRejected => event.kind === 'invalid');
}

export function descriptionOf(item: ItemProduced): Bundle {
  const descriptions = item.write.bundle.relations.describes ?? [];
  expect(descriptions).toHaveLength(1);
  return descriptions[0];
}

export function dataOf(bundles: readonly Bundle[] | undefined): Bundle['data'][] {
  return (bundles ?? []).map((bundle) => bundle.data);
}

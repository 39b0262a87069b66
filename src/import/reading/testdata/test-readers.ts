import { Bundle, Props } from '../../../items/bundle';
import { ImportInputError, ImportSource, ItemProduced, ReadEvent } from '../../formats/read-events';
import { PartBuilder, UnbuiltItem } from '../worker-messages';

/**
 * Readers for `worker-reading.spec.ts`, which runs them in worker threads. Every source's bytes
 * are lines of text.
 */

function item(id: string, tag: string): ItemProduced {
  return {
    kind: 'item',
    tag,
    write: {
      bundle: { id, type: 'DocumentaryUnit', data: { identifier: id }, relations: {} },
      edges: { heldBy: ['r1'] },
    },
  };
}

async function* lines(source: ImportSource): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of source.bytes()) {
    const parts = (rest + decoder.decode(chunk, { stream: true })).split('\n');
    rest = parts.pop() ?? '';
    yield* parts;
  }
  if (rest !== '') yield rest;
}

/**
 * An item with what a flat encoding may get wrong: values of every type (a number where a list's
 * length would be, an `undefined` that no type allows), empty lists and relations, dependents of
 * dependents, keys whose order is not their order of insertion, edges and a hash absent or present.
 */
export function unusualItem(id: string, tag: string, variant: number): ItemProduced {
  const leaf = (name: string): Bundle => ({
    id: `${id}/${name}`,
    type: 'DatePeriod',
    data: {},
    relations: {},
  });
  // Parsed, so that `__proto__` is a key of its own, as JSON.parse makes it.
  const data = JSON.parse('{"name": "Unit", "__proto__": "own", "empty": ""}') as Props;
  Object.assign(data, { count: variant, negative: -3, zero: -0, ratio: 1.5, nan: NaN, yes: true, no: false });
  Object.assign(data, {
    none: [],
    numbers: [1, -2],
    texts: ['a', ''],
    10: 'ten',
    2: 'two',
    missing: undefined,
  });
  const description: Bundle = {
    id: `${id}/d`,
    type: 'DocumentaryUnitDescription',
    data: { languageCode: 'eng', flags: [true, false] },
    relations: {
      hasDate: [leaf('date0'), { ...leaf('date1'), relations: { hasDate: [leaf('inner')] } }],
      relatesTo: [],
      maintenance: undefined,
    },
  };
  const item: ItemProduced = {
    kind: 'item',
    tag,
    write: {
      bundle: { id, type: 'DocumentaryUnit', data, relations: { describes: [description] } },
      edges: { childOf: ['parent'], hasPermissionScope: [], heldBy: ['r1', 'r2'] },
    },
  };
  if (variant % 2 === 1) delete item.write.edges;
  if (variant % 3 === 1) item.write.edges = undefined;
  if (variant % 4 !== 0) item.hash = variant % 4 === 1 ? `hash${variant}` : undefined;
  return item;
}

/** One item per line, its id the line with `prefix` in front. */
export async function* itemPerLine(
  source: ImportSource,
  settings: { prefix: string },
): AsyncGenerator<ReadEvent> {
  for await (const line of lines(source)) yield item(`${settings.prefix}${line}`, source.tag);
}

/** `unusualItem`s, one per line, their variant the line's number. */
export async function* unusualItemPerLine(source: ImportSource): AsyncGenerator<ReadEvent> {
  let variant = 0;
  for await (const line of lines(source)) yield unusualItem(line, source.tag, variant++);
}

/** `item`, saying in its data which thread built it. */
function builtItem(id: string, tag: string, builtBy: 'worker' | 'consumer'): ItemProduced {
  const event = item(id, tag);
  event.write.bundle.data.builtBy = builtBy;
  return event;
}

/** One item per line, left unbuilt: its part is the line, `unbuiltLineBuilder` its part builder. */
export async function* unbuiltItemPerLine(source: ImportSource): AsyncGenerator<UnbuiltItem> {
  for await (const line of lines(source)) {
    yield { kind: 'unbuilt', build: () => builtItem(line, source.tag, 'worker'), part: () => [line] };
  }
}

export function unbuiltLineBuilder(_settings: unknown, source: Omit<ImportSource, 'bytes'>): PartBuilder {
  return ([line]) => builtItem(line as string, source.tag, 'consumer');
}

/** One item per chunk of bytes, whatever it holds. */
export async function* itemPerChunk(source: ImportSource): AsyncGenerator<ReadEvent> {
  let count = 0;
  for await (const _chunk of source.bytes()) yield item(`chunk${count++}`, source.tag);
}

/** Items for the lines before one reading `bad`, then an input error naming its line and column. */
export async function* failAtBadLine(source: ImportSource): AsyncGenerator<ReadEvent> {
  let line = 0;
  for await (const text of lines(source)) {
    line += 1;
    if (text === 'bad') {
      throw new ImportInputError(`Bad line in ${source.tag} at line ${line}, column 2`, {
        tag: source.tag,
        line,
        column: 2,
      });
    }
    yield item(text, source.tag);
  }
}

/** Fails at once, as a reader refusing its settings does, with an error that is not an input error. */
export function failWithBug(): AsyncIterable<ReadEvent> {
  throw new TypeError('Cannot read a bug');
}

/** Ends the worker's thread as a crash would. */
export function exitThread(): AsyncIterable<ReadEvent> {
  process.exit(3);
}

/** One item whose `modules` lists the loaded modules from `packages` that match `pattern`. */
export async function* loadedModules(
  source: ImportSource,
  settings: { load: string; pattern: string },
): AsyncGenerator<ReadEvent> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(settings.load);
  const loaded = Object.keys(require.cache).filter((name) => name.includes(settings.pattern));
  const event = item('modules', source.tag);
  event.write.bundle.data.modules = loaded;
  yield event;
}

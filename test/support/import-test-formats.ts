import { Injectable, Module } from '@nestjs/common';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { GraphWriter } from '../../src/graph/graph-store';
import { Bundle } from '../../src/items/bundle';
import { ItemType } from '../../src/items/item-types';
import { IDENTIFIER, LANGUAGE_CODE, NAME } from '../../src/items/ontology';
import {
  FinishResult,
  FormatReader,
  ImportContext,
  ImportFormat,
  ImportInputError,
  ImportOutcome,
  ImportSource,
  ReadEvent,
} from '../../src/import/formats/format-reader';

/**
 * Test-only formats that drive the import run without depending on a real format. A document is
 * lines of text:
 *
 *   `<localId> <name…>`        a unit `<scope>-<localId>` with one description named `<name…>`
 *   `!invalid <key> <message>` an item the reader rejects
 *   `!fail <message>`          an input error at that line (a parse error)
 *   `!crash`                   an unexpected error (a server fault)
 *
 * The description's language is the `lang` parameter; the mapping text (`properties`) and the
 * source's media type are recorded on the unit, so that tests can see what the reader was given.
 */
async function* lines(source: ImportSource): AsyncIterable<string> {
  yield* createInterface({ input: Readable.from(source.bytes()), crlfDelay: Infinity });
}

function unit(
  scope: string,
  localId: string,
  name: string,
  source: ImportSource,
  context: ImportContext,
): Bundle {
  const id = `${scope}-${localId}`;
  const data: Bundle['data'] = { [IDENTIFIER]: localId };
  if (context.params.properties !== undefined) data.mapping = context.params.properties;
  if (source.contentType !== undefined) data.contentType = source.contentType;
  const description: Bundle = {
    id: `${id}.${context.params.lang}`,
    type: 'DocumentaryUnitDescription',
    data: { [NAME]: name, [LANGUAGE_CODE]: context.params.lang },
    relations: {},
  };
  return { id, type: 'DocumentaryUnit', data, relations: { describes: [description] } };
}

async function* readLines(source: ImportSource, context: ImportContext): AsyncIterable<ReadEvent> {
  const scope = context.scope?.bundle.id ?? 'noscope';
  let line = 0;
  for await (const text of lines(source)) {
    line += 1;
    const [first, second = '', ...rest] = text.trim().split(/\s+/);
    if (first === undefined || first === '') continue;
    if (first === '!fail')
      throw new ImportInputError(`bad line: ${text}`, { tag: source.tag, line, column: 1 });
    if (first === '!crash') throw new Error('the test reader crashed');
    if (first === '!invalid') {
      yield { kind: 'invalid', tag: source.tag, key: second, message: `${second}: name: ${rest.join(' ')}` };
      continue;
    }
    const write = { bundle: unit(scope, first, [second, ...rest].join(' '), source, context) };
    yield {
      kind: 'item',
      tag: source.tag,
      write: scope === 'noscope' ? write : { ...write, edges: { heldBy: [scope] } },
    };
  }
}

@Injectable()
@ImportFormat()
export class TestLinesReader implements FormatReader {
  readonly name = 'test-lines';
  readonly classNames = ['lines', 'org.example.LinesHandler', 'org.example.LinesImporter'];
  readonly scopeTypes: readonly ItemType[] = ['Repository'];
  readonly input = 'documents';
  read = readLines;
}

/** The same documents, read as one raw body whatever its media type. */
@Injectable()
@ImportFormat()
export class TestRawReader implements FormatReader {
  readonly name = 'test-raw';
  readonly classNames = ['raw'];
  readonly scopeTypes: readonly ItemType[] = ['Repository'];
  readonly scopeRequired = true;
  readonly input = 'raw';
  read = readLines;
}

/**
 * The lines format with a `finish` step in the manner of a sync: deletes the ids given as
 * `delete` parameters and answers `{ log, deleted }`.
 */
@Injectable()
@ImportFormat()
export class TestSyncReader implements FormatReader {
  readonly name = 'test-sync';
  readonly classNames = ['sync'];
  readonly scopeTypes: readonly ItemType[] = ['Repository'];
  readonly input = 'documents';
  read = readLines;

  async finish(store: GraphWriter, outcome: ImportOutcome, context: ImportContext): Promise<FinishResult> {
    const requested = context.params.query.delete ?? [];
    const deleted = (Array.isArray(requested) ? requested : [requested]).filter(
      (id) => !outcome.produced.has(id),
    );
    await store.deleteItems(deleted);
    return { touched: deleted, answer: (log) => ({ log, deleted }) };
  }
}

@Module({ providers: [TestLinesReader, TestRawReader, TestSyncReader] })
export class ImportTestFormatsModule {}

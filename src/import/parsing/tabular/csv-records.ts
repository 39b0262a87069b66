import { Parser } from 'papaparse';
import { ImportInputError, ImportSource } from '../../formats/format-reader';

/** One record of a CSV document. */
export interface CsvRecord {
  /** 1-based position among the document's records, as a spreadsheet numbers its rows. */
  row: number;
  cells: string[];
}

type LineBreak = '\r\n' | '\n' | '\r';

const QUOTE = '"';

/**
 * The document's line break: the first one outside quotes. Undefined while the text seen so far
 * cannot tell (no line break yet, or a `\r` that may be followed by `\n` in the next chunk).
 */
export function lineBreakOf(text: string): LineBreak | undefined {
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === QUOTE) quoted = !quoted;
    else if (!quoted && character === '\n') return '\n';
    else if (!quoted && character === '\r') {
      if (index + 1 === text.length) return undefined;
      return text[index + 1] === '\n' ? '\r\n' : '\r';
    }
  }
  return undefined;
}

const INVALID_UTF8 = 'ERR_ENCODING_INVALID_ENCODED_DATA';

async function* decodeUtf8(source: ImportSource): AsyncGenerator<string> {
  // A byte sequence split between two chunks is completed by the next one (`stream: true`).
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of source.bytes()) yield decoder.decode(chunk, { stream: true });
    yield decoder.decode();
  } catch (error) {
    if ((error as { code?: unknown }).code !== INVALID_UTF8) throw error;
    throw new ImportInputError(`${source.tag} is not UTF-8 text: save the table as UTF-8`, {
      tag: source.tag,
    });
  }
}

/** Whether a record holds nothing: a blank line, or only empty cells. */
export function isBlank(cells: readonly string[]): boolean {
  return cells.every((cell) => cell === '');
}

/** What papaparse's core parser returns; its errors always carry their record's index. */
interface ParseResult {
  data: string[][];
  errors: { row: number; message: string }[];
  meta: { cursor: number };
}

/**
 * The records of a CSV document, read chunk by chunk with papaparse's parser: only the record
 * that a chunk leaves unfinished is kept between chunks, so memory does not grow with the
 * document. Blank lines are skipped (but counted, so that row numbers stay those of a
 * spreadsheet). Malformed quoting is an input error naming the row.
 */
export async function* readCsvRecords(source: ImportSource, delimiter: string): AsyncGenerator<CsvRecord> {
  let parser: Parser | undefined;
  let unfinished = '';
  let row = 0;

  function* take(result: ParseResult, final: boolean): Generator<CsvRecord> {
    // A non-final parse may report errors in the record it leaves unfinished; that record is
    // parsed again with the next chunk.
    const error = result.errors.find((candidate) => final || candidate.row < result.data.length);
    if (error !== undefined) {
      const at = row + error.row + 1;
      throw new ImportInputError(`Malformed CSV in ${source.tag}, row ${at}: ${error.message}`, {
        tag: source.tag,
        key: `row ${at}`,
      });
    }
    for (const cells of result.data) {
      row += 1;
      if (!isBlank(cells)) yield { row, cells };
    }
  }

  for await (const text of decodeUtf8(source)) {
    unfinished += text;
    const newline = parser === undefined ? lineBreakOf(unfinished) : undefined;
    if (newline !== undefined) parser = new Parser({ delimiter, newline });
    if (parser === undefined) continue;
    const result = parser.parse(unfinished, 0, true) as ParseResult;
    unfinished = unfinished.slice(result.meta.cursor);
    yield* take(result, false);
  }
  // A document of one record: its line break, if any, ends it.
  parser ??= new Parser({
    delimiter,
    newline: lineBreakOf(unfinished) ?? (unfinished.endsWith('\r') ? '\r' : '\n'),
  });
  yield* take(parser.parse(unfinished, 0, false) as ParseResult, true);
}

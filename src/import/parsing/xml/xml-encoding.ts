/**
 * The character encoding of an XML document, found as XML 1.0 appendix F says (byte order mark,
 * then the encoding declaration, else UTF-8), and a streaming decoder for it.
 */

/** A decoding failure: the bytes are not valid in the document's encoding. */
export class XmlDecodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlDecodingError';
  }
}

interface ChunkDecoder {
  /** Decodes the next bytes; `final` flushes a sequence left incomplete by earlier chunks. */
  decode(bytes: Uint8Array, final: boolean): string;
}

export interface DetectedEncoding {
  /** The encoding's canonical name, as used in messages. */
  name: string;
  createDecoder(): ChunkDecoder;
}

/** Bytes read before deciding: enough for any byte order mark and a typical XML declaration. */
const DETECTION_WINDOW = 1024;

// Windows-1252 differs from ISO-8859-1 only in 0x80–0x9F. Node's TextDecoder decodes both as
// ISO-8859-1 (so "€" would come out as U+0080), hence this table. The five bytes Windows-1252
// leaves undefined map to the C1 control of the same value, as the WHATWG Encoding Standard says.
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];
const C1_RANGE = /[\u0080-\u009f]/g;

function windows1252Character(c1: string): string {
  return String.fromCharCode(WINDOWS_1252_HIGH[c1.charCodeAt(0) - 0x80]);
}

const latin1: DetectedEncoding = {
  name: 'ISO-8859-1',
  createDecoder: () => ({
    decode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1'),
  }),
};

const windows1252: DetectedEncoding = {
  name: 'windows-1252',
  createDecoder: () => {
    const decoder = latin1.createDecoder();
    return { decode: (bytes, final) => decoder.decode(bytes, final).replace(C1_RANGE, windows1252Character) };
  },
};

function textDecoderEncoding(name: string, label: string): DetectedEncoding {
  return {
    name,
    createDecoder: () => {
      const decoder = new TextDecoder(label, { fatal: true });
      return {
        decode: (bytes, final) => {
          try {
            return decoder.decode(bytes, { stream: !final });
          } catch {
            throw new XmlDecodingError(`The document is not valid ${name}`);
          }
        },
      };
    },
  };
}

const utf8 = textDecoderEncoding('UTF-8', 'utf-8');
const utf16le = textDecoderEncoding('UTF-16LE', 'utf-16le');
const utf16be = textDecoderEncoding('UTF-16BE', 'utf-16be');

const LATIN1_LABELS = new Set([
  'iso-8859-1',
  'iso_8859-1',
  'iso8859-1',
  'latin1',
  'l1',
  'iso-ir-100',
  'cp819',
  'ibm819',
]);
const WINDOWS_1252_LABELS = new Set(['windows-1252', 'cp1252', 'x-cp1252']);
const UTF8_LABELS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/** The encoding a declaration names, for an ASCII-compatible document. */
function declaredEncoding(label: string): DetectedEncoding {
  const normalised = label.trim().toLowerCase();
  if (UTF8_LABELS.has(normalised)) return utf8;
  if (LATIN1_LABELS.has(normalised)) return latin1;
  if (WINDOWS_1252_LABELS.has(normalised)) return windows1252;
  if (normalised.startsWith('utf-16')) {
    throw new XmlDecodingError(`The document declares ${label} but is not encoded in UTF-16`);
  }
  let encoding: string;
  try {
    encoding = new TextDecoder(normalised).encoding;
  } catch {
    throw new XmlDecodingError(`Unsupported encoding: ${label}`);
  }
  // Labels the WHATWG standard folds into windows-1252 need this module's table (see above).
  return encoding === 'windows-1252' ? windows1252 : textDecoderEncoding(label, encoding);
}

const DECLARATION = /^<\?xml\s[^>]*?\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** The document's encoding from its first bytes (at most `DETECTION_WINDOW` are looked at). */
export function detectEncoding(head: Uint8Array): DetectedEncoding {
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return utf8;
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0x3c, 0x00, 0x3f, 0x00])) return utf16le;
  if (startsWith(head, [0xfe, 0xff]) || startsWith(head, [0x00, 0x3c, 0x00, 0x3f])) return utf16be;
  const prefix = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, DETECTION_WINDOW)).toString(
    'latin1',
  );
  const match = DECLARATION.exec(prefix);
  return match === null ? utf8 : declaredEncoding(match[1] ?? match[2]);
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** Whether `head` holds enough of the document to decide on its encoding. */
function enoughToDetect(head: Uint8Array): boolean {
  if (head.length >= DETECTION_WINDOW) return true;
  // The declaration, when there is one, ends at the first '>'.
  return head.length >= 4 && head.indexOf(0x3e) !== -1;
}

/**
 * Decodes a document's bytes chunk by chunk, synchronously: the encoding is detected from the first
 * bytes (held back until there are enough), a byte order mark is dropped, and a multi-byte
 * sequence split between chunks is carried over.
 */
export class XmlTextDecoder {
  private decoder: ChunkDecoder | undefined;
  private head: Uint8Array[] = [];

  /** The text of `chunk` and of any held-back chunks before it; empty while the encoding is unknown. */
  decode(chunk: Uint8Array): string {
    if (this.decoder !== undefined) return this.decoder.decode(chunk, false);
    this.head.push(chunk);
    const bytes = concat(this.head);
    if (!enoughToDetect(bytes)) return '';
    this.decoder = detectEncoding(bytes).createDecoder();
    this.head = [];
    return this.decoder.decode(bytes, false);
  }

  /** The text left once the last chunk is in (an incomplete sequence fails). */
  end(): string {
    const rest = concat(this.head);
    this.head = [];
    this.decoder ??= detectEncoding(rest).createDecoder();
    return this.decoder.decode(rest, true);
  }
}

/** `XmlTextDecoder` over a stream of chunks. */
export async function* decodeXml(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new XmlTextDecoder();
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk);
    if (text !== '') yield text;
  }
  yield decoder.end();
}

import { SaxesParser, SaxesTagPlain } from 'saxes';
import { ImportInputError, ImportSource } from '../../formats/read-events';
import { XmlDecodingError, XmlTextDecoder } from './xml-encoding';
import { declareEntities, EntityError, EntityLimits, DEFAULT_ENTITY_LIMITS } from './xml-entities';

/** Where the parser is: the line (1-based) and column (1-based) after the last event. */
export interface XmlLocator {
  readonly line: number;
  readonly column: number;
}

/**
 * Receives a document's elements and text, SAX style. Names are local names: a namespace prefix
 * is dropped, so namespaced and un-namespaced documents read alike.
 */
export interface XmlContentHandler<T> {
  startElement(name: string, attributes: Readonly<Record<string, string>>, qualifiedName: string): void;
  text(text: string): void;
  /** The innermost open element ends (handlers keep their own stack of open elements). */
  endElement(): void;
  /** What the handler produced since the last call; called after every chunk of input. */
  drain(): T[];
}

/**
 * Thrown by a handler (or the parser) when a document goes past a limit on the work it may cause:
 * a 400 that names the limit, with the source's tag, line and column added by `readXml`.
 */
export class XmlLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlLimitError';
  }
}

/**
 * Deepest element nesting read in any document. Handlers keep a record per open element, and some
 * work per element grows with its depth (unmapped fields are named after the element's path);
 * libxml2's default is a quarter of this. Formats bound their own units well within it.
 */
export const MAX_ELEMENT_DEPTH = 1024;

function localName(qualifiedName: string): string {
  return qualifiedName.slice(qualifiedName.indexOf(':') + 1);
}

function inputError(reason: string, tag: string, where: XmlLocator): ImportInputError {
  return new ImportInputError(
    `Malformed XML in ${tag} at line ${where.line}, column ${where.column}: ${reason}`,
    { tag, line: where.line, column: where.column },
  );
}

// saxes prefixes its messages with the position, which the import error carries on its own.
const POSITION_PREFIX = /^\d+:\d+: /;

function createParser(tag: string, limits: EntityLimits) {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const locator: XmlLocator = {
    get line() {
      return parser.line;
    },
    get column() {
      return parser.column + 1;
    },
  };
  parser.on('error', (error) => {
    throw inputError(error.message.replace(POSITION_PREFIX, ''), tag, locator);
  });
  parser.on('doctype', (doctype) => declareEntities(parser.ENTITIES, doctype, limits));
  return { parser, locator };
}

function attach<T>(parser: SaxesParser, handler: XmlContentHandler<T>): void {
  let depth = 0;
  parser.on('opentag', (element: SaxesTagPlain) => {
    if (++depth > MAX_ELEMENT_DEPTH) {
      throw new XmlLimitError(`Elements are nested deeper than the limit of ${MAX_ELEMENT_DEPTH}`);
    }
    handler.startElement(localName(element.name), element.attributes, element.name);
  });
  parser.on('closetag', () => {
    depth -= 1;
    handler.endElement();
  });
  parser.on('text', (text) => handler.text(text));
  parser.on('cdata', (text) => handler.text(text));
}

/**
 * Streams one XML document through `handler`, yielding what it produces as each chunk of input is
 * parsed: memory holds one chunk and the handler's own state, never the document. `handlerFor`
 * receives the locator that tells the handler where the parser is. Malformed input, an encoding
 * error or an entity refused by `limits` becomes an `ImportInputError` naming the source's tag,
 * line and column.
 */
export async function* readXml<T>(
  source: ImportSource,
  handlerFor: (locator: XmlLocator) => XmlContentHandler<T>,
  limits: EntityLimits = DEFAULT_ENTITY_LIMITS,
): AsyncGenerator<T> {
  const { parser, locator } = createParser(source.tag, limits);
  const handler = handlerFor(locator);
  attach(parser, handler);
  const decoder = new XmlTextDecoder();
  try {
    for await (const chunk of source.bytes()) {
      parser.write(decoder.decode(chunk));
      // A loop, not `yield*`: delegating to an array costs an extra await per event.
      for (const event of handler.drain()) yield event;
    }
    parser.write(decoder.end()).close();
  } catch (error) {
    if (error instanceof EntityError || error instanceof XmlDecodingError) {
      throw inputError(error.message, source.tag, locator);
    }
    if (error instanceof XmlLimitError) {
      const { line, column } = locator;
      throw new ImportInputError(`${error.message}: in ${source.tag} at line ${line}, column ${column}`, {
        tag: source.tag,
        line,
        column,
      });
    }
    throw error;
  }
  for (const event of handler.drain()) yield event;
}

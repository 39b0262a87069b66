import { Readable } from 'node:stream';
import { decodeXml } from '../../parsing/xml/xml-encoding';
import { ImportInputError, ImportSource } from '../format-reader';
import { RDF_XML, RdfFormat } from './rdf-format';

/** An RDF object as the reader keeps it: an IRI, a blank node or a literal. */
export type RdfTerm = { kind: 'iri'; value: string } | { kind: 'blank'; value: string } | RdfLiteral;

/** A literal: its lexical form, its lower-cased language tag ('' for none) and its datatype IRI. */
export interface RdfLiteral {
  kind: 'literal';
  value: string;
  language: string;
  datatype: string;
}

/** The RDF/JS term shapes the parsers emit, as far as the reader reads them. */
interface ParsedTerm {
  termType: string;
  value: string;
  language?: string;
  datatype?: { value: string };
}

interface ParsedQuad {
  subject: ParsedTerm;
  predicate: ParsedTerm;
  object: ParsedTerm;
}

const BLANK_PREFIX = '_:';
const NO_TERMS: readonly RdfTerm[] = [];

/** The key of a resource in the graph: its IRI, or `_:label` for a blank node. */
export function resourceKey(term: RdfTerm): string | undefined {
  if (term.kind === 'iri') return term.value;
  if (term.kind === 'blank') return BLANK_PREFIX + term.value;
  return undefined;
}

export function isBlankKey(key: string): boolean {
  return key.startsWith(BLANK_PREFIX);
}

/**
 * Triples grouped by subject, then by predicate, objects in document order. Concepts can only be
 * built once the whole document is read (a label may come last), so this is what the reader holds:
 * one small entry per kept triple, not a general-purpose RDF store.
 */
export class RdfGraph {
  private readonly bySubject = new Map<string, Map<string, RdfTerm[]>>();

  add(subject: string, predicate: string, object: RdfTerm): void {
    let predicates = this.bySubject.get(subject);
    if (predicates === undefined) {
      predicates = new Map();
      this.bySubject.set(subject, predicates);
    }
    const objects = predicates.get(predicate);
    if (objects === undefined) predicates.set(predicate, [object]);
    else objects.push(object);
  }

  /** The objects of `subject`'s triples with any of `predicates`, in that order. */
  objects(subject: string, predicates: string | readonly string[]): readonly RdfTerm[] {
    const bySubject = this.bySubject.get(subject);
    if (bySubject === undefined) return NO_TERMS;
    if (typeof predicates === 'string') return bySubject.get(predicates) ?? NO_TERMS;
    // Called for every field of every concept: a plain loop, no intermediate arrays.
    const found: RdfTerm[] = [];
    for (const predicate of predicates) {
      const objects = bySubject.get(predicate);
      if (objects !== undefined) found.push(...objects);
    }
    return found;
  }

  /** Subjects in the order they first appear. */
  subjects(): IterableIterator<string> {
    return this.bySubject.keys();
  }
}

/**
 * One shared instance per distinct string. Parsers make a new string for every occurrence of a
 * predicate, language tag, datatype or IRI; a large vocabulary repeats these a hundred thousand
 * times, so the graph keeps one copy of each.
 */
function interner(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    seen.set(text, text);
    return text;
  };
}

function toTerm(term: ParsedTerm, intern: (text: string) => string): RdfTerm {
  if (term.termType === 'Literal') {
    return {
      kind: 'literal',
      value: term.value,
      // Language tags are case-insensitive; the reference's Jena hands them on lower-cased.
      language: intern((term.language ?? '').toLowerCase()),
      datatype: intern(term.datatype?.value ?? ''),
    };
  }
  return { kind: term.termType === 'BlankNode' ? 'blank' : 'iri', value: intern(term.value) };
}

/** JSON-LD contexts are never fetched: a document naming a remote one is refused. */
const refuseRemoteContexts = {
  load(url: string): Promise<never> {
    return Promise.reject(new Error(`remote JSON-LD contexts are not fetched (${url})`));
  },
};

// rdf-parse hands its options to the parser actors as their context; this is the JSON-LD actor's
// document-loader entry (`KeysRdfParseJsonLd.documentLoader` of @comunica/context-entries).
const JSON_LD_DOCUMENT_LOADER = '@comunica/actor-rdf-parse-jsonld:documentLoader';

// Positions as the parsers report them: N3 in `context.line`, the RDF/XML parser (saxes) as a
// `line:column:` prefix of its message.
const SAX_POSITION = /^(\d+):(\d+): /;

function parseError(error: unknown, format: RdfFormat, tag: string): ImportInputError {
  const cause = error instanceof Error ? error : new Error(String(error));
  const saxPosition = SAX_POSITION.exec(cause.message);
  const n3Line = (cause as { context?: { line?: unknown } }).context?.line;
  const line = saxPosition ? Number(saxPosition[1]) : typeof n3Line === 'number' ? n3Line : undefined;
  const column = saxPosition ? Number(saxPosition[2]) : undefined;
  const detail = saxPosition ? cause.message.slice(saxPosition[0].length) : cause.message;
  const position =
    line === undefined ? '' : column === undefined ? ` at line ${line}` : ` at ${line}:${column}`;
  return new ImportInputError(`Cannot parse ${tag} as ${format.name}${position}: ${detail}`, {
    tag,
    line,
    column,
  });
}

/** Text in UTF-8, which every syntax but RDF/XML requires; a character split between chunks is kept whole. */
async function* decodeUtf8(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
  yield decoder.decode();
}

/** The document as text: RDF/XML in the encoding its declaration names, the others in UTF-8. */
function textOf(source: ImportSource, format: RdfFormat): AsyncGenerator<string> {
  return format.name === RDF_XML.name ? decodeXml(source.bytes()) : decodeUtf8(source.bytes());
}

/**
 * Parses `source` as `format` into a graph holding only the triples whose predicate is in `keep`.
 * Any syntax error fails the whole import with the tag and, when the parser says, the position.
 */
export async function readRdfGraph(
  source: ImportSource,
  format: RdfFormat,
  keep: ReadonlySet<string>,
  baseIRI?: string,
): Promise<RdfGraph> {
  const options = {
    contentType: format.mediaType,
    baseIRI,
    [JSON_LD_DOCUMENT_LOADER]: refuseRemoteContexts,
  };
  // Loaded with the first SKOS import: the parsers of every RDF syntax are a large share of the
  // heap of each thread that loads the formats, and only this reader needs them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { rdfParser } = require('rdf-parse') as typeof import('rdf-parse');
  const text = Readable.from(textOf(source, format));
  const quads = rdfParser.parse(text, options);
  const graph = new RdfGraph();
  const intern = interner();
  try {
    for await (const quad of quads as AsyncIterable<ParsedQuad>) {
      if (!keep.has(quad.predicate.value)) continue;
      const subject = resourceKey(toTerm(quad.subject, intern));
      if (subject !== undefined)
        graph.add(subject, intern(quad.predicate.value), toTerm(quad.object, intern));
    }
  } catch (error) {
    throw parseError(error, format, source.tag);
  } finally {
    // A parser that fails leaves its input where it stopped: the source (a spooled file) is closed
    // only when the text stream is.
    text.destroy();
  }
  return graph;
}

import { JsonLdSerializer } from 'jsonld-streaming-serializer';
import { DataFactory, Quad, StreamWriter } from 'n3';
import { Duplex, Readable } from 'node:stream';
import { RdfObject, Statements, Triple } from './concept-triples';

/** The prefixes the exports name their terms with. */
export const PREFIXES: Readonly<Record<string, string>> = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  dc: 'http://purl.org/dc/elements/1.1/',
  owl: 'http://www.w3.org/2002/07/owl#',
  geo: 'http://www.w3.org/2003/01/geo/wgs84_pos#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  sem: 'http://semanticweb.cs.vu.nl/2009/11/sem/',
};

function quadOf({ subject, predicate, object }: Triple): Quad {
  const { namedNode, literal, quad } = DataFactory;
  const term = 'iri' in object ? namedNode(object.iri) : literal(object.literal, object.language);
  return quad(namedNode(subject), namedNode(predicate), term);
}

async function* quadsOf(statements: AsyncIterable<Statements>): AsyncGenerator<Quad> {
  for await (const group of statements) for (const triple of group.triples) yield quadOf(triple);
}

/** `statements` as quads through a serialiser's stream, errors of either ending the output. */
function serialised(statements: AsyncIterable<Statements>, serialiser: Duplex): Readable {
  const quads = Readable.from(quadsOf(statements));
  quads.on('error', (error) => serialiser.destroy(error));
  return quads.pipe(serialiser);
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;');
}

/** `prefix:local` for a predicate in a known namespace, or the namespace to declare for it. */
function qualifiedName(predicate: string): { name: string; namespace?: string } {
  for (const [prefix, namespace] of Object.entries(PREFIXES)) {
    const local = predicate.slice(namespace.length);
    if (predicate.startsWith(namespace) && /^[A-Za-z_][\w.-]*$/.test(local))
      return { name: `${prefix}:${local}` };
  }
  const split = Math.max(predicate.lastIndexOf('#'), predicate.lastIndexOf('/')) + 1;
  return { name: `p:${predicate.slice(split)}`, namespace: predicate.slice(0, split) };
}

function rdfXmlProperty(predicate: string, object: RdfObject): string {
  const { name, namespace } = qualifiedName(predicate);
  const declaration = namespace === undefined ? '' : ` xmlns:p="${escapeXml(namespace)}"`;
  if ('iri' in object) return `    <${name}${declaration} rdf:resource="${escapeXml(object.iri)}"/>\n`;
  const language = object.language === undefined ? '' : ` xml:lang="${escapeXml(object.language)}"`;
  return `    <${name}${declaration}${language}>${escapeXml(object.literal)}</${name}>\n`;
}

/**
 * RDF/XML, written here: no small, kept npm library writes it as a stream, and the subset needed
 * (one `rdf:Description` per group of statements, IRIs and language-tagged literals) is a few lines.
 */
async function* rdfXml(statements: AsyncIterable<Statements>): AsyncGenerator<string> {
  const namespaces = Object.entries(PREFIXES)
    .map(([prefix, namespace]) => `\n    xmlns:${prefix}="${namespace}"`)
    .join('');
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF${namespaces}>\n`;
  for await (const { subject, triples } of statements) {
    const properties = triples.map(({ predicate, object }) => rdfXmlProperty(predicate, object)).join('');
    yield `  <rdf:Description rdf:about="${escapeXml(subject)}">\n${properties}  </rdf:Description>\n`;
  }
  yield '</rdf:RDF>\n';
}

/** The syntaxes the SKOS export offers, by media type, Turtle (the default) first. */
export const RDF_MEDIA_TYPES = [
  'text/turtle',
  'application/rdf+xml',
  'application/n-triples',
  'application/ld+json',
] as const;
export type RdfMediaType = (typeof RDF_MEDIA_TYPES)[number];

/**
 * A SKOS document in the syntax of `mediaType`, written as `statements` come: Turtle and
 * N-Triples by N3.js's stream writer, JSON-LD by `jsonld-streaming-serializer` (the JSON-LD
 * parser's own family), RDF/XML here.
 */
export function rdfDocument(mediaType: RdfMediaType, statements: AsyncIterable<Statements>): Readable {
  switch (mediaType) {
    case 'text/turtle':
      return serialised(statements, new StreamWriter({ format: 'Turtle', prefixes: PREFIXES }));
    case 'application/n-triples':
      return serialised(statements, new StreamWriter({ format: 'N-Triples' }));
    case 'application/ld+json':
      // Its streams are `readable-stream`'s, which Node's pipe takes as its own.
      return serialised(statements, new JsonLdSerializer({ space: '  ' }) as unknown as Duplex);
    case 'application/rdf+xml':
      return Readable.from(rdfXml(statements));
  }
}

import { ImportInputError } from '../format-reader';

/** An RDF serialisation the reader parses: its usual name and the media type the parser knows. */
export interface RdfFormat {
  name: string;
  mediaType: string;
}

interface FormatEntry extends RdfFormat {
  /** Upper-cased names accepted for `format` (the reference's Jena names and their aliases). */
  aliases: readonly string[];
  /** Media types that select it, from `format` or from the body's `Content-Type`. */
  mediaTypes: readonly string[];
}

const FORMATS: readonly FormatEntry[] = [
  {
    name: 'RDF/XML',
    mediaType: 'application/rdf+xml',
    aliases: ['RDF/XML', 'RDF/XML-ABBREV', 'RDFXML', 'RDF'],
    mediaTypes: ['application/rdf+xml'],
  },
  {
    name: 'Turtle',
    mediaType: 'text/turtle',
    aliases: ['TURTLE', 'TTL'],
    mediaTypes: ['text/turtle', 'application/x-turtle', 'application/turtle'],
  },
  { name: 'N3', mediaType: 'text/n3', aliases: ['N3', 'NOTATION3'], mediaTypes: ['text/n3', 'text/rdf+n3'] },
  {
    name: 'N-Triples',
    mediaType: 'application/n-triples',
    aliases: ['N-TRIPLES', 'N-TRIPLE', 'NTRIPLES', 'NTRIPLE', 'NT'],
    mediaTypes: ['application/n-triples'],
  },
  {
    name: 'N-Quads',
    mediaType: 'application/n-quads',
    aliases: ['N-QUADS', 'NQUADS', 'NQ'],
    mediaTypes: ['application/n-quads'],
  },
  { name: 'TriG', mediaType: 'application/trig', aliases: ['TRIG'], mediaTypes: ['application/trig'] },
  {
    name: 'JSON-LD',
    mediaType: 'application/ld+json',
    aliases: ['JSON-LD', 'JSONLD'],
    mediaTypes: ['application/ld+json', 'application/json'],
  },
];

/** The reference's default when neither the request nor the body says. */
export const RDF_XML: RdfFormat = FORMATS[0];

function mediaTypeOf(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

function byMediaType(contentType: string): FormatEntry | undefined {
  const mediaType = mediaTypeOf(contentType);
  return FORMATS.find((format) => format.mediaTypes.includes(mediaType));
}

function byName(name: string): FormatEntry | undefined {
  const upper = name.trim().toUpperCase();
  return FORMATS.find((format) => format.aliases.includes(upper)) ?? byMediaType(name);
}

function describe({ name, mediaType }: FormatEntry): RdfFormat {
  return { name, mediaType };
}

/**
 * The format of a SKOS body: the `format` parameter (a name such as `Turtle` or `RDF/XML`, any
 * case, or a media type) when given, else the body's `Content-Type` when it is an RDF media type,
 * else RDF/XML, the reference's default.
 */
export function resolveRdfFormat(
  formatParam: string | undefined,
  contentType: string | undefined,
): RdfFormat {
  if (formatParam !== undefined && formatParam.trim() !== '') {
    const format = byName(formatParam);
    if (format === undefined) {
      const known = FORMATS.map((entry) => entry.name).join(', ');
      throw new ImportInputError(`Unknown RDF format: ${formatParam} (known formats: ${known})`, {
        key: 'format',
      });
    }
    return describe(format);
  }
  const fromContentType = contentType === undefined ? undefined : byMediaType(contentType);
  return describe(fromContentType ?? FORMATS[0]);
}

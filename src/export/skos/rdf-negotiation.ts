import { BadRequestException, NotAcceptableException } from '@nestjs/common';
import { RDF_MEDIA_TYPES, RdfMediaType } from './rdf-writers';

/** Names the `format` parameter takes for each syntax (any case), besides the media types. */
const FORMAT_NAMES: Readonly<Record<string, RdfMediaType>> = {
  turtle: 'text/turtle',
  ttl: 'text/turtle',
  'rdf/xml': 'application/rdf+xml',
  rdfxml: 'application/rdf+xml',
  xml: 'application/rdf+xml',
  'n-triples': 'application/n-triples',
  ntriples: 'application/n-triples',
  nt: 'application/n-triples',
  'json-ld': 'application/ld+json',
  jsonld: 'application/ld+json',
};

const OFFERED = `offered: ${RDF_MEDIA_TYPES.join(', ')}`;

interface MediaRange {
  type: string;
  subtype: string;
  quality: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part): MediaRange[] => {
    const [range, ...parameters] = part.split(';').map((piece) => piece.trim());
    const [type, subtype] = range.toLowerCase().split('/');
    if (type === undefined || type === '' || subtype === undefined || subtype === '') return [];
    const q = parameters.find((parameter) => /^q\s*=/i.test(parameter));
    const quality = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1).trim());
    return Number.isFinite(quality) ? [{ type, subtype, quality }] : [];
  });
}

/** The quality the most specific range matching `mediaType` gives it; undefined when none matches. */
function qualityOf(mediaType: string, ranges: readonly MediaRange[]): number | undefined {
  const [type, subtype] = mediaType.split('/');
  let best: { specificity: number; quality: number } | undefined;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (best === undefined || specificity > best.specificity)) {
      best = { specificity, quality: range.quality };
    }
  }
  return best?.quality;
}

/**
 * The RDF syntax of a SKOS export: the `format` parameter when given (a name such as `turtle` or
 * a media type), else the best of `Accept` (RFC 9110 §12.5.1), Turtle when it names none or any;
 * 406 when neither names a syntax the export writes.
 */
export function negotiateRdf(accept: string | undefined, format: unknown): RdfMediaType {
  // A parameter given twice arrives as a list: one value is asked for.
  if (format !== undefined && typeof format !== 'string') {
    throw new BadRequestException('format: give it once, as one syntax name or media type');
  }
  if (format !== undefined && format.trim() !== '') {
    const wanted = format.trim().toLowerCase();
    const byName = FORMAT_NAMES[wanted] ?? RDF_MEDIA_TYPES.find((mediaType) => mediaType === wanted);
    if (byName === undefined) throw new NotAcceptableException(`format: "${format}" is not ${OFFERED}`);
    return byName;
  }
  if (accept === undefined || accept.trim() === '') return RDF_MEDIA_TYPES[0];
  const ranges = mediaRanges(accept);
  let chosen: { mediaType: RdfMediaType; quality: number } | undefined;
  for (const mediaType of RDF_MEDIA_TYPES) {
    const quality = qualityOf(mediaType, ranges);
    if (quality !== undefined && quality > 0 && (chosen === undefined || quality > chosen.quality)) {
      chosen = { mediaType, quality };
    }
  }
  if (chosen === undefined)
    throw new NotAcceptableException(`Accept: "${accept}" names no syntax ${OFFERED}`);
  return chosen.mediaType;
}

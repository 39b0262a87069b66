import { ImportInputError } from '../format-reader';
import { resolveRdfFormat } from './rdf-format';

describe('resolveRdfFormat', () => {
  it.each([
    ['RDF/XML', 'application/rdf+xml'],
    ['rdf/xml-abbrev', 'application/rdf+xml'],
    ['Turtle', 'text/turtle'],
    ['TTL', 'text/turtle'],
    ['n3', 'text/n3'],
    ['N-Triples', 'application/n-triples'],
    ['N-TRIPLE', 'application/n-triples'],
    ['JSON-LD', 'application/ld+json'],
    ['text/turtle; charset=utf-8', 'text/turtle'],
  ])('takes the format parameter %s as %s', (format, mediaType) => {
    expect(resolveRdfFormat(format, 'application/rdf+xml').mediaType).toBe(mediaType);
  });

  it('takes an RDF Content-Type when no format is given', () => {
    expect(resolveRdfFormat(undefined, 'text/turtle;charset=UTF-8').name).toBe('Turtle');
    expect(resolveRdfFormat('  ', 'application/ld+json').name).toBe('JSON-LD');
  });

  it('falls back to RDF/XML when neither the parameter nor the Content-Type names a syntax', () => {
    expect(resolveRdfFormat(undefined, undefined).name).toBe('RDF/XML');
    expect(resolveRdfFormat(undefined, 'application/octet-stream').name).toBe('RDF/XML');
  });

  it('refuses an unknown format, listing the known ones', () => {
    expect(() => resolveRdfFormat('RDF/YAML', undefined)).toThrow(ImportInputError);
    expect(() => resolveRdfFormat('RDF/YAML', undefined)).toThrow(/Unknown RDF format: RDF\/YAML .*Turtle/);
  });
});

import { BadRequestException, NotAcceptableException } from '@nestjs/common';
import { negotiateRdf } from './rdf-negotiation';

describe('negotiateRdf', () => {
  it.each([
    [undefined, 'text/turtle'],
    ['', 'text/turtle'],
    ['*/*', 'text/turtle'],
    ['application/ld+json', 'application/ld+json'],
    ['Application/RDF+XML', 'application/rdf+xml'],
    ['text/turtle;q=0.2, application/n-triples;q=0.9', 'application/n-triples'],
    ['application/*;q=0.5, application/ld+json;q=0.1', 'application/rdf+xml'],
    ['text/html, */*;q=0.1', 'text/turtle'],
  ])('Accept %s → %s', (accept, mediaType) => {
    expect(negotiateRdf(accept, undefined)).toBe(mediaType);
  });

  it('takes the format parameter over Accept, by name or media type, in any case', () => {
    expect(negotiateRdf('text/turtle', 'JSON-LD')).toBe('application/ld+json');
    expect(negotiateRdf(undefined, 'nt')).toBe('application/n-triples');
    expect(negotiateRdf(undefined, 'RDF/XML')).toBe('application/rdf+xml');
    expect(negotiateRdf('application/pdf', 'text/turtle')).toBe('text/turtle');
  });

  it('refuses what it does not write, naming what it does', () => {
    expect(() => negotiateRdf('application/pdf', undefined)).toThrow(NotAcceptableException);
    expect(() => negotiateRdf('text/turtle;q=0', undefined)).toThrow(/application\/ld\+json/);
    expect(() => negotiateRdf(undefined, 'RDF/YAML')).toThrow(/RDF\/YAML/);
  });

  it('refuses a format given twice (a list) as a bad request, not an error of its own', () => {
    expect(() => negotiateRdf(undefined, ['nt', 'turtle'])).toThrow(BadRequestException);
  });
});

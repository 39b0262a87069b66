import { selectConcepts } from './concept-selection';
import { RdfGraph } from './rdf-graph';
import {
  RDF_TYPE,
  SKOS_CONCEPT,
  SKOS_HAS_TOP_CONCEPT,
  SKOS_IN_SCHEME,
  SKOS_TOP_CONCEPT_OF,
} from './skos-terms';

const iri = (name: string) => ({ kind: 'iri' as const, value: `http://example.org/${name}` });

describe('selectConcepts', () => {
  const graph = new RdfGraph();
  graph.add(iri('s1').value, SKOS_HAS_TOP_CONCEPT, iri('top'));
  graph.add(iri('top').value, RDF_TYPE, { kind: 'iri', value: SKOS_CONCEPT });
  graph.add(iri('inS1').value, RDF_TYPE, { kind: 'iri', value: SKOS_CONCEPT });
  graph.add(iri('inS1').value, SKOS_IN_SCHEME, iri('s1'));
  graph.add(iri('inS2').value, RDF_TYPE, { kind: 'iri', value: SKOS_CONCEPT });
  graph.add(iri('inS2').value, SKOS_TOP_CONCEPT_OF, iri('s2'));
  graph.add(iri('untyped').value, SKOS_IN_SCHEME, iri('s1'));

  it('takes every skos:Concept, in document order', () => {
    expect(selectConcepts(graph)).toEqual([iri('top').value, iri('inS1').value, iri('inS2').value]);
  });

  it('takes only the concepts of the concept scheme when one is named', () => {
    expect(selectConcepts(graph, iri('s1').value)).toEqual([iri('top').value, iri('inS1').value]);
    expect(selectConcepts(graph, iri('s2').value)).toEqual([iri('inS2').value]);
  });
});

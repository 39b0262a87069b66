import { RdfGraph } from './rdf-graph';
import {
  RDF_TYPE,
  SKOS_CONCEPT,
  SKOS_HAS_TOP_CONCEPT,
  SKOS_IN_SCHEME,
  SKOS_TOP_CONCEPT_OF,
} from './skos-terms';

function isConcept(graph: RdfGraph, subject: string): boolean {
  return graph.objects(subject, RDF_TYPE).some((type) => type.kind === 'iri' && type.value === SKOS_CONCEPT);
}

function inScheme(graph: RdfGraph, subject: string, scheme: string): boolean {
  const statedByConcept = graph
    .objects(subject, [SKOS_IN_SCHEME, SKOS_TOP_CONCEPT_OF])
    .some((object) => object.kind === 'iri' && object.value === scheme);
  return (
    statedByConcept ||
    graph.objects(scheme, SKOS_HAS_TOP_CONCEPT).some((top) => top.kind === 'iri' && top.value === subject)
  );
}

/**
 * The resources to import as concepts, in document order: every `skos:Concept`, or, when the
 * `concept-scheme` parameter names a scheme, those of them in that scheme (`skos:inScheme`,
 * `skos:topConceptOf` or the scheme's `skos:hasTopConcept`).
 */
export function selectConcepts(graph: RdfGraph, scheme?: string): string[] {
  return [...graph.subjects()].filter(
    (subject) => isConcept(graph, subject) && (scheme === undefined || inScheme(graph, subject, scheme)),
  );
}

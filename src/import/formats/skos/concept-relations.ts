import { RdfGraph } from './rdf-graph';
import { SKOS_BROADER, SKOS_NARROWER, SKOS_RELATED } from './skos-terms';

/** Maps an id to the ids its edges of one type point to. */
export type EdgeMap = Map<string, Set<string>>;

export interface ConceptRelations {
  /** `narrower` edges (broader → narrower) leaving the file's concepts. */
  narrower: EdgeMap;
  /** `related` edges leaving the file's concepts. */
  related: EdgeMap;
  /**
   * `narrower` edges from concepts outside the file (already in the vocabulary) to concepts in
   * it: the file says `skos:broader` of one of them.
   */
  narrowerFromOutside: EdgeMap;
}

interface Edge {
  from: string;
  to: string;
}

function addEdge(edges: EdgeMap, { from, to }: Edge): void {
  const targets = edges.get(from);
  if (targets === undefined) edges.set(from, new Set([to]));
  else targets.add(to);
}

/**
 * The SKOS relations between the file's concepts (`concepts`: URI → id, in document order) and
 * concepts already in the vocabulary. `broader` and `narrower` both give `narrower` edges from
 * the broader concept; an edge is kept only when both ends are concepts of the file or of the
 * vocabulary (`existing` tells which of the other ids are), and never from a concept to itself.
 */
export async function conceptRelations(
  graph: RdfGraph,
  concepts: ReadonlyMap<string, string>,
  idOf: (uri: string) => string | undefined,
  existing: (ids: readonly string[]) => Promise<ReadonlySet<string>>,
): Promise<ConceptRelations> {
  const targetIds = (uri: string, predicate: string): string[] =>
    graph
      .objects(uri, predicate)
      .flatMap((object) => (object.kind === 'iri' ? [idOf(object.value)] : []))
      .filter((id): id is string => id !== undefined);

  const narrower: Edge[] = [];
  const related: Edge[] = [];
  for (const [uri, id] of concepts) {
    for (const to of targetIds(uri, SKOS_NARROWER)) narrower.push({ from: id, to });
    for (const from of targetIds(uri, SKOS_BROADER)) narrower.push({ from, to: id });
    for (const to of targetIds(uri, SKOS_RELATED)) related.push({ from: id, to });
  }

  const inFile = new Set(concepts.values());
  const outside = [...narrower, ...related]
    .flatMap(({ from, to }) => [from, to])
    .filter((id) => !inFile.has(id));
  const inVocabulary = await existing([...new Set(outside)]);
  const known = (id: string): boolean => inFile.has(id) || inVocabulary.has(id);
  const kept = (edges: Edge[]): Edge[] =>
    edges.filter(({ from, to }) => from !== to && known(from) && known(to));

  const relations: ConceptRelations = {
    narrower: new Map(),
    related: new Map(),
    narrowerFromOutside: new Map(),
  };
  for (const edge of kept(narrower)) {
    addEdge(inFile.has(edge.from) ? relations.narrower : relations.narrowerFromOutside, edge);
  }
  for (const edge of kept(related)) addEdge(relations.related, edge);
  return relations;
}

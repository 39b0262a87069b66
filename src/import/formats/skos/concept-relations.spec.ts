import { conceptRelations } from './concept-relations';
import { RdfGraph } from './rdf-graph';
import { SKOS_BROADER, SKOS_NARROWER, SKOS_RELATED } from './skos-terms';

const uri = (name: string) => `http://example.org/${name}`;
const idOf = (value: string) => `voc-${value.slice(value.lastIndexOf('/') + 1)}`;

function graphOf(triples: [string, string, string][]): RdfGraph {
  const graph = new RdfGraph();
  for (const [subject, predicate, object] of triples) {
    graph.add(uri(subject), predicate, { kind: 'iri', value: uri(object) });
  }
  return graph;
}

function inFile(...names: string[]): Map<string, string> {
  return new Map(names.map((name) => [uri(name), idOf(uri(name))]));
}

const sorted = (edges: Map<string, Set<string>>) =>
  Object.fromEntries([...edges].map(([from, to]) => [from, [...to].sort()]));

describe('conceptRelations', () => {
  const nothingElse = async () => new Set<string>();

  it('makes narrower edges from the broader concept, whichever side states them, once', async () => {
    const graph = graphOf([
      ['parent', SKOS_NARROWER, 'a'],
      ['a', SKOS_BROADER, 'parent'],
      ['b', SKOS_BROADER, 'parent'],
      ['a', SKOS_RELATED, 'b'],
    ]);

    const relations = await conceptRelations(graph, inFile('parent', 'a', 'b'), idOf, nothingElse);

    expect(sorted(relations.narrower)).toEqual({ 'voc-parent': ['voc-a', 'voc-b'] });
    expect(sorted(relations.related)).toEqual({ 'voc-a': ['voc-b'] });
    expect(relations.narrowerFromOutside.size).toBe(0);
  });

  it('keeps edges to concepts outside the file only when the vocabulary has them', async () => {
    const graph = graphOf([
      ['a', SKOS_BROADER, 'stored'],
      ['a', SKOS_BROADER, 'unknown'],
      ['a', SKOS_NARROWER, 'storedChild'],
      ['a', SKOS_RELATED, 'unknown'],
      ['a', SKOS_RELATED, 'a'],
    ]);
    const asked: string[][] = [];
    const existing = async (ids: readonly string[]) => {
      asked.push([...ids].sort());
      return new Set(ids.filter((id) => id.startsWith('voc-stored')));
    };

    const relations = await conceptRelations(graph, inFile('a'), idOf, existing);

    expect(asked).toEqual([['voc-stored', 'voc-storedChild', 'voc-unknown']]);
    expect(sorted(relations.narrower)).toEqual({ 'voc-a': ['voc-storedChild'] });
    expect(sorted(relations.narrowerFromOutside)).toEqual({ 'voc-stored': ['voc-a'] });
    expect(relations.related.size).toBe(0);
  });
});

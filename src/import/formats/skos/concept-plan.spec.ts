import { ConceptIdentity, isRefusal, planConcepts } from './concept-plan';
import { RdfGraph } from './rdf-graph';
import { PREF_LABEL } from './skos-terms';

const label = (value: string) => ({ kind: 'literal' as const, value, language: 'en', datatype: '' });

/** Ids as a vocabulary `voc` would give them: the URI's last path segment, lower-cased. */
function identify(uri: string): ConceptIdentity | undefined {
  const localId = uri.slice(uri.lastIndexOf('/') + 1).toLowerCase();
  return localId === '' ? undefined : { localId, id: `voc-${localId}` };
}

describe('planConcepts', () => {
  const graph = new RdfGraph();
  graph.add('http://ex/A', PREF_LABEL[0], label('A'));
  graph.add('http://other/a', PREF_LABEL[0], label('Also a'));
  graph.add('http://ex/twice', PREF_LABEL[0], label('One'));
  graph.add('http://ex/twice', PREF_LABEL[1], label('Two'));

  const uris = ['http://ex/A', '_:b0', 'http://ex/', 'http://other/a', 'http://ex/twice'];
  const entries = planConcepts(graph, uris, identify, 'eng');

  it('plans a concept with its identity and preferred labels', () => {
    expect(entries[0]).toEqual({
      uri: 'http://ex/A',
      localId: 'a',
      id: 'voc-a',
      labels: [{ text: 'A', language: { code: 'eng' }, descriptionId: 'voc-a.eng' }],
    });
  });

  it('refuses, naming the field, blank nodes, URIs without local id, id clashes and two labels in one language', () => {
    const refusals = entries
      .filter(isRefusal)
      .map(({ uri, problem }) => [uri, problem.field, problem.message]);

    expect(refusals).toEqual([
      ['_:b0', 'uri', 'a concept must have a URI, not a blank node'],
      ['http://ex/', 'identifier', expect.stringContaining('no local identifier in the URI')],
      ['http://other/a', 'identifier', 'the id voc-a is already that of concept http://ex/A'],
      ['http://ex/twice', 'prefLabel', 'more than one prefLabel in language eng: "One" and "Two"'],
    ]);
  });
});

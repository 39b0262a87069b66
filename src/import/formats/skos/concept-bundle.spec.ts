import { ImportSource } from '../format-reader';
import { ConceptProblem, conceptData, conceptDescriptions, prefLabels } from './concept-bundle';
import { resolveRdfFormat } from './rdf-format';
import { RdfGraph, readRdfGraph } from './rdf-graph';
import { USED_PREDICATES } from './skos-terms';

const PREFIXES = `
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix xl: <http://www.w3.org/2008/05/skos-xl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix geo: <http://www.w3.org/2003/01/geo/wgs84_pos#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <http://example.org/> .
`;
const CONCEPT = 'http://example.org/c';

function turtleGraph(statements: string): Promise<RdfGraph> {
  const source: ImportSource = {
    tag: 'test.ttl',
    async *bytes() {
      yield Buffer.from(PREFIXES + statements);
    },
  };
  return readRdfGraph(source, resolveRdfFormat('Turtle', undefined), USED_PREDICATES);
}

async function descriptionsOf(statements: string, defaultLang = 'eng') {
  const graph = await turtleGraph(statements);
  return conceptDescriptions(graph, CONCEPT, prefLabels(graph, CONCEPT, 'voc-c', defaultLang), defaultLang);
}

describe('conceptDescriptions', () => {
  it('makes one description per prefLabel language, with that language’s values, sorted', async () => {
    const descriptions = await descriptionsOf(`ex:c skos:prefLabel "Camp"@en, "Lager"@de ;
      skos:altLabel "KZ"@de, "Konzentrationslager"@de, "Camp site"@en ;
      skos:scopeNote "Note"@de ; rdfs:comment "Comment"@de ; skos:hiddenLabel "kamp"@en .`);

    expect(descriptions.map(({ id, data }) => [id, data])).toEqual([
      ['voc-c.eng', { name: 'Camp', languageCode: 'eng', altLabel: ['Camp site'], hiddenLabel: ['kamp'] }],
      [
        'voc-c.deu',
        {
          name: 'Lager',
          languageCode: 'deu',
          altLabel: ['KZ', 'Konzentrationslager'],
          scopeNote: ['Comment', 'Note'],
        },
      ],
    ]);
  });

  it('gives untagged values the default language', async () => {
    const [description] = await descriptionsOf('ex:c skos:prefLabel "Kamp" ; skos:definition "Def" .', 'nld');

    expect(description.data).toEqual({ name: 'Kamp', languageCode: 'nld', definition: ['Def'] });
  });

  it('tells descriptions of one language apart by the script subtag', async () => {
    const descriptions = await descriptionsOf(`ex:c skos:prefLabel "Logor"@sr-Latn, "Логор"@sr-Cyrl ;
      skos:definition "latinica"@sr-Latn, "ћирилица"@sr-Cyrl .`);

    expect(descriptions.map(({ id, data }) => [id, data.identifier, data.definition])).toEqual([
      ['voc-c.srp-latn', 'latn', ['latinica']],
      ['voc-c.srp-cyrl', 'cyrl', ['ћирилица']],
    ]);
  });

  it('gives a lone description every alternative label, whatever its language', async () => {
    const [description] = await descriptionsOf(`ex:c skos:prefLabel "Lorestan" ;
      skos:altLabel "Lorestan"@de, "Lorestan"@nl, "لرستان"@fa, "Luristan"@no .`);

    expect(description.data.altLabel).toEqual(['Lorestan', 'Luristan', 'لرستان']);
  });

  it('reads SKOS-XL labels by their literal form and reified values by rdf:value', async () => {
    const [description] = await descriptionsOf(`ex:c xl:prefLabel ex:l1 ; xl:altLabel ex:l2, ex:empty ;
      skos:definition [ rdf:value "Reified"@en ] .
      ex:l1 xl:literalForm "Pref"@en . ex:l2 xl:literalForm "Alt"@en .`);

    expect(description.data).toEqual({
      name: 'Pref',
      languageCode: 'eng',
      altLabel: ['Alt'],
      definition: ['Reified'],
    });
  });

  it('keeps literal and unresolved SKOS relations as unknown properties of every description', async () => {
    const descriptions = await descriptionsOf(`ex:c skos:prefLabel "A"@en, "B"@de ;
      owl:sameAs "same"@en, ex:elsewhere ; skos:exactMatch ex:match ; skos:closeMatch "7"^^xsd:int .`);

    for (const description of descriptions) {
      expect(description.relations.hasUnknownProperty?.map(({ data }) => data)).toEqual([
        { 'owl:sameAs': 'same@en' },
        { 'skos:exactMatch': 'http://example.org/match' },
        { 'skos:closeMatch': '7^^http://www.w3.org/2001/XMLSchema#int' },
      ]);
    }
    const ids = descriptions.flatMap((description) =>
      description.relations.hasUnknownProperty?.map(({ id }) => id),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses two prefLabels in one language, naming both', async () => {
    const attempt = descriptionsOf('ex:c skos:prefLabel "One"@en, "Two"@en-GB, "Three"@en .');

    await expect(attempt).rejects.toThrow(ConceptProblem);
    await expect(attempt).rejects.toMatchObject({
      field: 'prefLabel',
      message: 'more than one prefLabel in language eng: "One" and "Three"',
    });
  });
});

describe('conceptData', () => {
  it('keeps coordinates, links and seeAlso; splits geo:lat_long', async () => {
    const graph = await turtleGraph(`ex:c geo:lat "33.5" ; geo:long "48.5" ;
      rdfs:seeAlso ex:a, ex:b . ex:d geo:lat_long "50.4,3.8" .`);

    expect(conceptData(graph, CONCEPT, 'c')).toEqual({
      identifier: 'c',
      uri: CONCEPT,
      latitude: '33.5',
      longitude: '48.5',
      seeAlso: ['http://example.org/a', 'http://example.org/b'],
    });
    expect(conceptData(graph, 'http://example.org/d', 'd')).toMatchObject({
      latitude: '50.4',
      longitude: '3.8',
    });
  });
});

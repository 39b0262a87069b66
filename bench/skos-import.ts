/**
 * SKOS import benchmark (issue 5: a 1–2 MB RDF/XML vocabulary must import in seconds). Generates
 * a vocabulary of concepts with labels in three languages, notes, a broader/narrower tree and
 * related links, then posts it to the real app on a temporary SQLite store: dry run, commit and
 * unchanged re-import, each timed end to end over HTTP, beside the time to parse it alone. Prints
 * one JSON object.
 *
 * `node -r ts-node/register/transpile-only bench/skos-import.ts` (env `BENCH_CONCEPTS` to scale).
 */
import { addNamedItem } from '../src/named-items/named-item';
import { resolveRdfFormat } from '../src/import/formats/skos/rdf-format';
import { readRdfGraph } from '../src/import/formats/skos/rdf-graph';
import { USED_PREDICATES } from '../src/import/formats/skos/skos-terms';
import { importPhasesBenchmark, runWhenMain } from './support/bench-app';

const CONCEPTS = Number(process.env.BENCH_CONCEPTS ?? 3_000);
const FAN_OUT = 6;
const BASE = 'http://vocab.example.org/camps/';
const VOCABULARY = 'camps';

function concept(index: number): string {
  const uri = `${BASE}c${index}`;
  const broader =
    index === 0 ? '' : `<skos:broader rdf:resource="${BASE}c${Math.floor((index - 1) / FAN_OUT)}"/>`;
  const related = index % 7 === 3 ? `<skos:related rdf:resource="${BASE}c${(index * 13) % CONCEPTS}"/>` : '';
  return `  <skos:Concept rdf:about="${uri}">
    <skos:inScheme rdf:resource="${BASE}"/>
    <skos:prefLabel xml:lang="en">Camp ${index}</skos:prefLabel>
    <skos:prefLabel xml:lang="de">Lager ${index}</skos:prefLabel>
    <skos:prefLabel xml:lang="pl">Obóz ${index}</skos:prefLabel>
    <skos:altLabel xml:lang="en">Labour camp number ${index}</skos:altLabel>
    <skos:altLabel xml:lang="de">Arbeitslager Nr. ${index}</skos:altLabel>
    <skos:scopeNote xml:lang="en">Source: ITS Arolsen, list of camps and detention places, entry ${index}.</skos:scopeNote>
    ${broader}${related}
  </skos:Concept>`;
}

function vocabulary(): Buffer {
  const concepts = Array.from({ length: CONCEPTS }, (_, index) => concept(index));
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" ' +
      'xmlns:skos="http://www.w3.org/2004/02/skos/core#">\n' +
      `${concepts.join('\n')}\n</rdf:RDF>\n`,
  );
}

async function parseSeconds(body: Buffer): Promise<number> {
  const started = performance.now();
  const source = {
    tag: 'bench.rdf',
    async *bytes() {
      yield body;
    },
  };
  await readRdfGraph(source, resolveRdfFormat(undefined, undefined), USED_PREDICATES);
  return (performance.now() - started) / 1000;
}

export async function main(): Promise<object> {
  return {
    concepts: CONCEPTS,
    ...(await importPhasesBenchmark({
      endpoint: 'skos',
      query: { scope: VOCABULARY },
      contentType: 'application/rdf+xml',
      body: vocabulary(),
      setUp: (store) => addNamedItem(store, 'CvocVocabulary', VOCABULARY),
      parseSeconds,
    })),
  };
}

runWhenMain(module, main);

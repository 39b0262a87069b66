/**
 * SKOS import benchmark (issue 5: a 1–2 MB RDF/XML vocabulary must import in seconds). Generates
 * a vocabulary of concepts with labels in three languages, notes, a broader/narrower tree and
 * related links, then posts it to the real app on a temporary SQLite store: dry run, commit and
 * unchanged re-import, each timed end to end over HTTP, beside the time to parse it alone. Prints
 * one JSON object.
 *
 * `node -r ts-node/register/transpile-only bench/skos-import.ts` (env `BENCH_CONCEPTS` to scale).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/app.setup';
import { addNamedItem } from '../src/items/named-item';
import { TokensService } from '../src/auth/tokens.service';
import { UsersService } from '../src/auth/users.service';
import { GraphStore } from '../src/graph/graph-store';
import { resolveRdfFormat } from '../src/import/formats/skos/rdf-format';
import { readRdfGraph } from '../src/import/formats/skos/rdf-graph';
import { USED_PREDICATES } from '../src/import/formats/skos/skos-terms';

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
  const dataDir = await mkdtemp(path.join(tmpdir(), 'skos-bench-'));
  process.env.GRAPH_URL = `sqlite:${path.join(dataDir, 'archive.db')}`;
  process.env.LOG_LEVEL = 'silent';
  // The app reads its configuration from the environment when it is created.
  const app = await NestFactory.create(AppModule, { bufferLogs: true, bodyParser: false });
  try {
    configureApp(app);
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as AddressInfo).port;
    await addNamedItem(app.get(GraphStore), 'CvocVocabulary', VOCABULARY);
    await app.get(UsersService).add('bench');
    const { token } = await app.get(TokensService).create({ role: 'import', name: 'bench' });
    const body = vocabulary();

    const post = async (commit: boolean) => {
      const started = performance.now();
      const query = new URLSearchParams({ scope: VOCABULARY, commit: String(commit) });
      const response = await fetch(`http://127.0.0.1:${port}/import/skos?${query}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'X-User': 'bench',
          'Content-Type': 'application/rdf+xml',
        },
        body,
      });
      const answer = (await response.json()) as Record<string, unknown>;
      if (response.status !== 201)
        throw new Error(`import answered ${response.status}: ${JSON.stringify(answer)}`);
      const { created, updated, unchanged } = answer;
      return { seconds: (performance.now() - started) / 1000, created, updated, unchanged };
    };

    const parseOnly = await parseSeconds(body);
    const dryRun = await post(false);
    const commit = await post(true);
    const reimport = await post(true);
    return {
      concepts: CONCEPTS,
      bytes: body.length,
      parseOnlySeconds: parseOnly,
      dryRun,
      commit,
      reimport,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

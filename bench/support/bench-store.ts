import { auth, driver as createDriver, Driver } from 'neo4j-driver';
import type { GraphStore } from '../../src/graph/graph-store';
import { itemHash } from '../../src/items/change-detection';
import { emptyNeo4j } from '../../test/support/test-store';

/**
 * The store a benchmark runs on: by default a SQLite file of its own; with `BENCH_GRAPH_URL` the
 * Neo4j database at that Bolt URL (user `NEO4J_USER`, default neo4j, password `NEO4J_PASSWORD`),
 * which the benchmark empties first: point it at a database kept for benchmarks.
 */
export const BENCH_GRAPH_URL = process.env.BENCH_GRAPH_URL?.trim() || undefined;

/** The environment that opens the benchmark's store: `GRAPH_URL` and, for Neo4j, its user. */
export function benchStoreEnv(sqliteFile: string): Record<string, string> {
  if (BENCH_GRAPH_URL === undefined) return { GRAPH_URL: `sqlite:${sqliteFile}` };
  return {
    GRAPH_URL: BENCH_GRAPH_URL,
    NEO4J_USER: process.env.NEO4J_USER || 'neo4j',
    NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '',
  };
}

/** A driver for the benchmark's Neo4j database (`BENCH_GRAPH_URL` must be set). */
export function benchNeo4jDriver(): Driver {
  if (BENCH_GRAPH_URL === undefined) throw new Error('BENCH_GRAPH_URL is not set');
  const { NEO4J_USER, NEO4J_PASSWORD } = benchStoreEnv('');
  return createDriver(BENCH_GRAPH_URL, auth.basic(NEO4J_USER, NEO4J_PASSWORD), {
    disableLosslessIntegers: true,
  });
}

/** Empties the benchmark's Neo4j database, when it runs on one. */
export async function emptyBenchStore(): Promise<void> {
  if (BENCH_GRAPH_URL === undefined) return;
  const { NEO4J_USER, NEO4J_PASSWORD } = benchStoreEnv('');
  await emptyNeo4j({ url: BENCH_GRAPH_URL, user: NEO4J_USER, password: NEO4J_PASSWORD });
}

/** A repository in the Netherlands, the scope the benchmarks import into. */
export async function addRepository(store: GraphStore, id: string): Promise<void> {
  const bundle = { id, type: 'Repository' as const, data: { identifier: id }, relations: {} };
  await store.write((tx) => tx.putItems([{ bundle, hash: itemHash(bundle), edges: { hasCountry: ['nl'] } }]));
}

import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, sqliteFileOf } from '../config/app-config';
import { GraphStore } from './graph-store';
import { RecordTokenStore, tokenRecords } from './records/record-token-store';
import { TokenStore } from './token-store';

/*
 * Each adapter is loaded only when `GRAPH_URL` names its store: the Neo4j driver and the Cypher
 * statements would otherwise sit in the heap of every thread that opens a store (the service's and
 * the import worker's) on SQLite too. (A dynamic import() would go through the ES module loader,
 * which does not load the TypeScript sources.)
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const sqliteAdapter = () =>
  require('./sqlite/sqlite-graph-store') as typeof import('./sqlite/sqlite-graph-store');
const sqliteTokens = () =>
  require('./sqlite/sqlite-token-store') as typeof import('./sqlite/sqlite-token-store');
const neo4jAdapter = () => require('./neo4j/neo4j-graph-store') as typeof import('./neo4j/neo4j-graph-store');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Opens the store `GRAPH_URL` names: `sqlite:<path>` (default) or a Neo4j URL, the only two
 * forms the settings' schema lets through.
 */
export async function openGraphStore(config: AppConfig): Promise<GraphStore> {
  const url = config.graphUrl;
  const file = sqliteFileOf(url);
  if (file !== undefined) {
    return sqliteAdapter().SqliteGraphStore.open(file, {
      acceleratedSearch: config.searchAccelerated,
      searchCacheMiB: config.searchCacheMiB,
    });
  }
  return neo4jAdapter().Neo4jGraphStore.connect({
    url,
    user: config.neo4jUser,
    password: config.neo4jPassword,
    transactionHeapMaxMiB: config.neo4jTransactionHeapMaxMiB,
  });
}

/**
 * The tokens of the store `GRAPH_URL` names: SQLite's in a file of their own beside the store's
 * (which takes over the tokens an older version kept in the store), Neo4j's as its records.
 */
export async function openTokenStore(config: AppConfig, graph: GraphStore): Promise<TokenStore> {
  const file = sqliteFileOf(config.graphUrl);
  if (file === undefined) return new RecordTokenStore(graph);
  return sqliteTokens().SqliteTokenStore.open(file, () => tokenRecords(graph));
}

@Global()
@Module({
  providers: [
    { provide: GraphStore, inject: [APP_CONFIG], useFactory: openGraphStore },
    { provide: TokenStore, inject: [APP_CONFIG, GraphStore], useFactory: openTokenStore },
  ],
  exports: [GraphStore, TokenStore],
})
export class GraphModule implements OnApplicationShutdown {
  constructor(
    @Inject(GraphStore) private readonly store: GraphStore,
    @Inject(TokenStore) private readonly tokens: TokenStore,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.tokens.close();
    await this.store.close();
  }
}

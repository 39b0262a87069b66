import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, sqliteFileOf } from '../config/app-config';
import { GraphStore } from './graph-store';
import { Neo4jGraphStore } from './neo4j/neo4j-graph-store';
import { SqliteGraphStore } from './sqlite/sqlite-graph-store';

const NEO4J_SCHEMES = ['bolt:', 'bolt+s:', 'neo4j:', 'neo4j+s:'];

/** Opens the store `GRAPH_URL` names: `sqlite:<path>` (default) or a Neo4j URL. */
export async function openGraphStore(config: AppConfig): Promise<GraphStore> {
  const url = config.graphUrl;
  const file = sqliteFileOf(url);
  if (file !== undefined) {
    return SqliteGraphStore.open(file, {
      acceleratedSearch: config.searchAccelerated,
      searchCacheMiB: config.searchCacheMiB,
    });
  }
  if (NEO4J_SCHEMES.some((scheme) => url.startsWith(scheme))) {
    return Neo4jGraphStore.connect({ url, user: config.neo4jUser, password: config.neo4jPassword });
  }
  throw new Error(
    `GRAPH_URL must start with sqlite:, bolt://, bolt+s://, neo4j:// or neo4j+s://, got "${url}"`,
  );
}

@Global()
@Module({
  providers: [{ provide: GraphStore, inject: [APP_CONFIG], useFactory: openGraphStore }],
  exports: [GraphStore],
})
export class GraphModule implements OnApplicationShutdown {
  constructor(@Inject(GraphStore) private readonly store: GraphStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

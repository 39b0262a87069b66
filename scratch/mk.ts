import { SqliteGraphStore } from '../src/graph/sqlite/sqlite-graph-store';
void SqliteGraphStore.open('/tmp/ro-store/archive.db').then((s) => s.close());

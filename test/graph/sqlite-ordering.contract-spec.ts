import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteGraphStore } from '../../src/graph/sqlite/sqlite-graph-store';
import { describeEdgeOrderingContract } from './graph-store-ordering.contract';

describeEdgeOrderingContract('SQLite', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'graph-store-ordering-'));
  const store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteGraphStore } from '../../src/graph/sqlite/sqlite-graph-store';
import { describeWriteOptionsContract } from './graph-store-write-options.contract';

// SQLite has one writer: a write apart queues like any other (tokens have a file of their own).
describeWriteOptionsContract(
  'SQLite',
  async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'graph-store-write-options-'));
    const store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
    return {
      store,
      cleanup: async () => {
        await store.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  },
  false,
);

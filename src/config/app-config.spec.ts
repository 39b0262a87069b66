import path from 'node:path';
import { loadConfig } from './app-config';

describe('loadConfig: read memos', () => {
  it('keeps them beside the SQLite file, or under ./data with Neo4j, unless told where', () => {
    expect(loadConfig({ GRAPH_URL: 'sqlite:/var/lib/archive/store.db' }).import.readMemoDir).toBe(
      '/var/lib/archive/read-memos',
    );
    expect(loadConfig({}).import.readMemoDir).toBe(path.resolve('data/read-memos'));
    expect(loadConfig({ GRAPH_URL: 'bolt://db:7687' }).import.readMemoDir).toBe(
      path.resolve('data/read-memos'),
    );
    expect(loadConfig({ IMPORT_READ_MEMO_DIR: '/srv/memos' }).import.readMemoDir).toBe('/srv/memos');
  });

  it('keeps up to 1 GiB of them by default; 0 turns them off; anything else is refused', () => {
    expect(loadConfig({}).import.readMemoMaxBytes).toBe(1024 ** 3);
    expect(loadConfig({ IMPORT_READ_MEMO_MAX_BYTES: '0' }).import.readMemoMaxBytes).toBe(0);
    expect(() => loadConfig({ IMPORT_READ_MEMO_MAX_BYTES: 'lots' })).toThrow('IMPORT_READ_MEMO_MAX_BYTES');
  });
});

describe('loadConfig: the port', () => {
  it('takes 0 to 65535, and refuses any other before anything listens', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65_535);
    expect(() => loadConfig({ PORT: '65536' })).toThrow('PORT must be at most 65535, got "65536"');
    expect(() => loadConfig({ PORT: '-1' })).toThrow('PORT must be a non-negative integer');
  });
});

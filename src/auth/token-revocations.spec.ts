import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphStore } from '../graph/graph-store';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store';
import { SqliteTokenStore } from '../graph/sqlite/sqlite-token-store';
import { TokenStore } from '../graph/token-store';
import { REVOCATION_POLL_MS, TokenRevocations } from './token-revocations';
import { TokensService } from './tokens.service';
import { UsersService } from './users.service';

describe('TokenRevocations', () => {
  let dir: string;
  let store: GraphStore;
  let tokenStore: TokenStore;
  let tokens: TokensService;
  let revocations: TokenRevocations;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'revocations-spec-'));
    store = await SqliteGraphStore.open(path.join(dir, 'archive.db'));
    tokenStore = await SqliteTokenStore.open(path.join(dir, 'archive.db'), async () => []);
    tokens = new TokensService(tokenStore, new UsersService(store));
    revocations = new TokenRevocations(tokens);
  });

  afterEach(async () => {
    revocations.onModuleDestroy();
    await tokenStore.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("tells this process's revocation at once, once, and only for the token watched", async () => {
    const watched = await tokens.create({ role: 'import' });
    const other = await tokens.create({ role: 'import' });
    const told: string[] = [];
    revocations.watch(watched.id, () => told.push('first'));
    revocations.watch(watched.id, () => told.push('second'));

    await tokens.revoke(other.id);
    expect(told).toEqual([]);
    await tokens.revoke(watched.id);
    expect(told).toEqual(['first', 'second']);
    await tokens.revoke(watched.id);
    expect(told).toEqual(['first', 'second']);
  });

  it("tells another connection's revocation within a poll, and nothing once unwatched", async () => {
    const watched = await tokens.create({ role: 'import' });
    const unwatched = await tokens.create({ role: 'import' });
    let told = 0;
    revocations.watch(watched.id, () => told++);
    const stop = revocations.watch(unwatched.id, () => told++);
    stop();

    const elsewhere = await SqliteTokenStore.open(path.join(dir, 'archive.db'), async () => []);
    try {
      await elsewhere.revoke(unwatched.id);
      await elsewhere.revoke(watched.id);
    } finally {
      await elsewhere.close();
    }
    await new Promise((resolve) => setTimeout(resolve, REVOCATION_POLL_MS * 3));
    expect(told).toBe(1);
  });
});

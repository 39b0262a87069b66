import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphStore } from '../graph/graph-store';
import { TOKEN_RECORD_TYPE } from '../graph/records/token-record';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store';
import { SqliteTokenStore, tokenFileOf } from '../graph/sqlite/sqlite-token-store';
import { TokenStore } from '../graph/token-store';
import { AuthInputError } from './auth-errors';
import { TokensService } from './tokens.service';
import { UsersService } from './users.service';

describe('TokensService', () => {
  let dir: string;
  let store: GraphStore;
  let tokenStore: TokenStore;
  let tokens: TokensService;
  let users: UsersService;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tokens-spec-'));
    store = await SqliteGraphStore.open(path.join(dir, 'archive.db'));
    users = new UsersService(store);
    tokenStore = await SqliteTokenStore.open(path.join(dir, 'archive.db'), async () => []);
    tokens = new TokensService(tokenStore, users);
  });

  afterEach(async () => {
    await tokenStore.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function storedTokenRecords() {
    return (await tokenStore.list()).map(({ id, ...props }) => ({ id, props }));
  }

  it('creates a 256-bit base64url token and stores only its SHA-256 hash', async () => {
    const { id, token } = await tokens.create({ role: 'portal', name: 'reader' });

    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const records = await storedTokenRecords();
    expect(records.map((record) => record.id)).toEqual([id]);
    const { props } = records[0];
    expect(props.hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(records)).not.toContain(token);
    expect(props).toMatchObject({ role: 'portal', name: 'reader', revoked: false });
  });

  it('gives every token a different secret and id', async () => {
    const first = await tokens.create({ role: 'import' });
    const second = await tokens.create({ role: 'import' });
    expect(second.token).not.toBe(first.token);
    expect(second.id).not.toBe(first.id);
  });

  it('verifies a token to its id, role and user', async () => {
    await users.add('mike');
    const { id, token } = await tokens.create({ role: 'import', user: 'mike' });
    await expect(tokens.verify(token)).resolves.toEqual({ id, role: 'import', user: 'mike' });
  });

  it('refuses a wrong token, including one that differs in a single character', async () => {
    const { token } = await tokens.create({ role: 'ops' });
    const lastChar = token.at(-1) === 'A' ? 'B' : 'A';
    await expect(tokens.verify(`${token.slice(0, -1)}${lastChar}`)).resolves.toBeUndefined();
    await expect(tokens.verify('')).resolves.toBeUndefined();
    await expect(tokens.verify(`${token}x`)).resolves.toBeUndefined();
  });

  it('refuses a revoked token and lists it as revoked', async () => {
    const { id, token } = await tokens.create({ role: 'portal' });
    await tokens.revoke(id);
    await expect(tokens.verify(token)).resolves.toBeUndefined();
    expect(await tokens.list()).toEqual([expect.objectContaining({ id, revoked: true })]);
  });

  it('refuses a token as soon as it is revoked, though verified (and cached) before', async () => {
    const { id, token } = await tokens.create({ role: 'portal' });
    await expect(tokens.verify(token)).resolves.toMatchObject({ id, role: 'portal' });
    await expect(tokens.verify(token)).resolves.toMatchObject({ id, role: 'portal' });
    await tokens.revoke(id);
    await expect(tokens.verify(token)).resolves.toBeUndefined();
  });

  it('lists tokens without their secret or hash', async () => {
    const { id, token } = await tokens.create({ role: 'ops', name: 'dashboard' });
    const [record] = await storedTokenRecords();

    const listed = await tokens.list();

    expect(listed).toEqual([
      { id, role: 'ops', user: undefined, name: 'dashboard', created: expect.any(String), revoked: false },
    ]);
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(JSON.stringify(listed)).not.toContain(String(record.props.hash));
  });

  it('refuses a token for an unknown user, an unknown role and revoking an unknown id', async () => {
    await expect(tokens.create({ role: 'portal', user: 'nobody' })).rejects.toThrow(
      new AuthInputError('unknown user "nobody"'),
    );
    await expect(tokens.create({ role: 'admin' as never })).rejects.toThrow(AuthInputError);
    await expect(tokens.revoke('no-such-token')).rejects.toThrow(AuthInputError);
    expect(await storedTokenRecords()).toEqual([]);
  });

  it('keeps tokens in a file of their own, none in the store', async () => {
    await tokens.create({ role: 'portal' });
    const { records } = await store.read((tx) => tx.findRecords({ type: TOKEN_RECORD_TYPE }));
    expect(records).toEqual([]);
    expect(tokenFileOf(path.join(dir, 'archive.db'))).toBe(path.join(dir, 'archive.tokens.db'));
  });

  it("sees another connection's revocation at once", async () => {
    const { id, token } = await tokens.create({ role: 'portal' });
    await expect(tokens.verify(token)).resolves.toBeDefined();
    const other = await SqliteTokenStore.open(path.join(dir, 'archive.db'), async () => []);
    try {
      await expect(other.revoke(id)).resolves.toBe(true);
    } finally {
      await other.close();
    }
    await expect(tokens.verify(token)).resolves.toBeUndefined();
    await expect(tokens.isActive(id)).resolves.toBe(false);
  });

  it("revokes at once while the store's writer is held by a long write", async () => {
    const { id } = await tokens.create({ role: 'import' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let writing!: () => void;
    const started = new Promise<void>((resolve) => (writing = resolve));
    const write = store.write(async () => {
      writing();
      await held;
    });
    await started;
    const clock = Date.now();
    await tokens.revoke(id);
    expect(Date.now() - clock).toBeLessThan(1000);
    release();
    await write;
    await expect(tokens.isActive(id)).resolves.toBe(false);
  });

  it('takes over, once, the tokens an older version kept in the store', async () => {
    const legacy = {
      id: 'old1',
      hash: createHash('sha256').update('x').digest('hex'),
      role: 'ops',
      created: '2020-01-01T00:00:00.000Z',
      revoked: false,
    };
    const file = path.join(dir, 'old.db');
    const first = await SqliteTokenStore.open(file, async () => [legacy]);
    await first.revoke('old1');
    await first.close();
    const again = await SqliteTokenStore.open(file, async () => [legacy]);
    try {
      expect(await again.list()).toEqual([{ ...legacy, revoked: true }]);
    } finally {
      await again.close();
    }
  });
});

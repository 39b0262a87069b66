import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphStore } from '../graph/graph-store';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store';
import { AuthInputError } from './auth-errors';
import { TOKEN_RECORD_TYPE, TokensService } from './tokens.service';
import { UsersService } from './users.service';

describe('TokensService', () => {
  let dir: string;
  let store: GraphStore;
  let tokens: TokensService;
  let users: UsersService;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tokens-spec-'));
    store = await SqliteGraphStore.open(path.join(dir, 'archive.db'));
    users = new UsersService(store);
    tokens = new TokensService(store, users);
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function storedTokenRecords() {
    const { records } = await store.read((tx) => tx.findRecords({ type: TOKEN_RECORD_TYPE }));
    return records;
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
});

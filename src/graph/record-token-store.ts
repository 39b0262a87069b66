import { Props } from '../items/bundle';
import { GraphStore, RecordNode } from './graph-store';
import { TokenRow, TokenStore } from './token-store';

/** The record type tokens are kept under in the graph store (Neo4j; SQLite before its token file). */
export const TOKEN_RECORD_TYPE = 'AccessToken';

function optionalString(props: Props, key: string): string | undefined {
  const value = props[key];
  return typeof value === 'string' ? value : undefined;
}

export function tokenRowOf(record: RecordNode): TokenRow {
  const { props } = record;
  const row: TokenRow = {
    id: record.id,
    hash: String(props.hash),
    role: String(props.role),
    created: String(props.created),
    revoked: props.revoked === true,
  };
  const user = optionalString(props, 'user');
  const name = optionalString(props, 'name');
  if (user !== undefined) row.user = user;
  if (name !== undefined) row.name = name;
  return row;
}

/** Every token the graph store keeps as records, oldest first. */
export async function tokenRecords(store: GraphStore): Promise<TokenRow[]> {
  const { records } = await store.read((tx) =>
    tx.findRecords({ type: TOKEN_RECORD_TYPE, orderBy: { property: 'created' } }),
  );
  return records.map(tokenRowOf);
}

/**
 * Tokens as records of the graph store, for Neo4j: its writes lock what they touch, and a token's
 * write skips the writers' queue and lock (`WriteOptions.apart`), so an import's transaction, which
 * never touches a token, does not hold it up.
 */
export class RecordTokenStore extends TokenStore {
  constructor(private readonly store: GraphStore) {
    super();
  }

  async add(row: TokenRow): Promise<void> {
    const { id, ...fields } = row;
    const props: Props = Object.fromEntries(
      Object.entries(fields).filter(([, value]) => value !== undefined),
    );
    await this.store.write((tx) => tx.putRecords([{ id, type: TOKEN_RECORD_TYPE, props }]), { apart: true });
  }

  async byHash(hash: string): Promise<TokenRow | undefined> {
    const { records } = await this.store.read((tx) =>
      tx.findRecords({ type: TOKEN_RECORD_TYPE, equals: { hash }, limit: 1 }),
    );
    return records[0] === undefined ? undefined : tokenRowOf(records[0]);
  }

  list(): Promise<TokenRow[]> {
    return tokenRecords(this.store);
  }

  async revoke(id: string): Promise<boolean> {
    return this.store.write(
      async (tx) => {
        const record = await tx.getRecord(id);
        if (record?.type !== TOKEN_RECORD_TYPE) return false;
        await tx.putRecords([{ ...record, props: { ...record.props, revoked: true } }]);
        return true;
      },
      { apart: true },
    );
  }

  async inactiveAmong(ids: readonly string[]): Promise<Set<string>> {
    const inactive = new Set<string>();
    await this.store.read(async (tx) => {
      for (const id of ids) {
        const record = await tx.getRecord(id);
        if (record?.type !== TOKEN_RECORD_TYPE || record.props.revoked === true) inactive.add(id);
      }
    });
    return inactive;
  }

  async close(): Promise<void> {}
}

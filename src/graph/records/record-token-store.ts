import { GraphStore } from '../graph-store';
import { TokenRow, TokenStore } from '../token-store';
import { revokedTokenRecord, tokenOf, tokenQuery, tokenRecord } from './token-record';

/** Every token the graph store keeps as records, oldest first. */
export async function tokenRecords(store: GraphStore): Promise<TokenRow[]> {
  const { records } = await store.read((tx) => tx.findRecords(tokenQuery()));
  return records.flatMap((record) => tokenOf(record) ?? []);
}

/**
 * Tokens as records of the graph store (their mapper: `token-record.ts`), for Neo4j: its writes
 * lock what they touch, and a token's write skips the writers' queue and lock
 * (`WriteOptions.apart`), so an import's transaction, which never touches a token, does not hold
 * it up.
 */
export class RecordTokenStore extends TokenStore {
  constructor(private readonly store: GraphStore) {
    super();
  }

  async add(row: TokenRow): Promise<void> {
    await this.store.write((tx) => tx.putRecords([tokenRecord(row)]), { apart: true });
  }

  async byHash(hash: string): Promise<TokenRow | undefined> {
    const { records } = await this.store.read((tx) => tx.findRecords(tokenQuery(hash)));
    return tokenOf(records[0]);
  }

  list(): Promise<TokenRow[]> {
    return tokenRecords(this.store);
  }

  async revoke(id: string): Promise<boolean> {
    return this.store.write(
      async (tx) => {
        const record = await tx.getRecord(id);
        if (record === undefined || tokenOf(record) === undefined) return false;
        await tx.putRecords([revokedTokenRecord(record)]);
        return true;
      },
      { apart: true },
    );
  }

  async inactiveAmong(ids: readonly string[]): Promise<Set<string>> {
    const inactive = new Set<string>();
    await this.store.read(async (tx) => {
      for (const id of ids) {
        const token = tokenOf(await tx.getRecord(id));
        if (token === undefined || token.revoked) inactive.add(id);
      }
    });
    return inactive;
  }

  async close(): Promise<void> {}
}

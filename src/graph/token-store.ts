/** A stored access token: never its secret, only the secret's SHA-256 hash (hex). */
export interface TokenRow {
  id: string;
  hash: string;
  role: string;
  user?: string;
  name?: string;
  /** ISO 8601. */
  created: string;
  revoked: boolean;
}

/**
 * The tokens' store port (README, "Users and tokens"), apart from the item graph so that a token's write never
 * waits for an import's write transaction and a token's read is never served from a cache: what
 * checks a token sees a revocation made by any process at once.
 */
export abstract class TokenStore {
  abstract add(row: TokenRow): Promise<void>;
  abstract byHash(hash: string): Promise<TokenRow | undefined>;
  /** Oldest first. */
  abstract list(): Promise<TokenRow[]>;
  /** Marks the token revoked; false when there is no token `id`. */
  abstract revoke(id: string): Promise<boolean>;
  /** Those of `ids` that are revoked or that name no token. */
  abstract inactiveAmong(ids: readonly string[]): Promise<Set<string>>;
  abstract close(): Promise<void>;
}

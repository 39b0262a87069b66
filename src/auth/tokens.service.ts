import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TokenRow, TokenStore } from '../graph/token-store';
import { AuthInputError } from './auth-errors';
import { Role, isRole } from './roles';
import { UsersService } from './users.service';

/** 256 random bits, base64url without padding. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface NewToken {
  role: Role;
  user?: string;
  name?: string;
}

/** What a verified token grants. */
export interface TokenGrant {
  id: string;
  role: Role;
  user?: string;
}

/** A token as listed: never its secret, never its hash. */
export interface TokenSummary extends TokenGrant {
  name?: string;
  created: string;
  revoked: boolean;
}

/** One-shot: half the time of a `createHash` object, and every request hashes its token. */
function sha256(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

function summaryOf(row: TokenRow): TokenSummary {
  const summary: TokenSummary = {
    id: row.id,
    role: row.role as Role,
    created: row.created,
    revoked: row.revoked,
  };
  if (row.user !== undefined) summary.user = row.user;
  if (row.name !== undefined) summary.name = row.name;
  return summary;
}

/**
 * Bearer tokens (README, "Users and tokens"): random, shown once by `create`, stored only as a SHA-256 hash in
 * the token store (`TokenStore`), compared in constant time, revocable at once: every check reads
 * the store, never a cache.
 */
@Injectable()
export class TokensService {
  /** Told the id of each token this process revokes (`revoked`), before other processes' are polled. */
  readonly revocations = new EventEmitter<{ revoked: [string] }>();

  constructor(
    private readonly store: TokenStore,
    private readonly users: UsersService,
  ) {}

  /** Returns the secret token; it is not stored and cannot be shown again. */
  async create(request: NewToken): Promise<{ id: string; token: string }> {
    if (!isRole(request.role)) throw new AuthInputError(`unknown role "${String(request.role)}"`);
    if (request.user !== undefined && !(await this.users.exists(request.user))) {
      throw new AuthInputError(`unknown user "${request.user}"`);
    }
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const id = randomBytes(8).toString('hex');
    await this.store.add({
      id,
      hash: sha256(token).toString('hex'),
      role: request.role,
      user: request.user,
      name: request.name,
      created: new Date().toISOString(),
      revoked: false,
    });
    return { id, token };
  }

  /** The grant of a valid, unrevoked token; `undefined` for anything else. */
  async verify(token: string): Promise<TokenGrant | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const presented = sha256(token);
    const row = await this.store.byHash(presented.toString('hex'));
    if (row === undefined) return undefined;
    const stored = Buffer.from(row.hash, 'hex');
    if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return undefined;
    const { id, role, user, revoked } = summaryOf(row);
    return revoked || !isRole(role) ? undefined : { id, role, user };
  }

  async list(): Promise<TokenSummary[]> {
    return (await this.store.list()).map(summaryOf);
  }

  /** Whether the token `id` exists and is not revoked, as every process sees it now. */
  async isActive(id: string): Promise<boolean> {
    return !(await this.store.inactiveAmong([id])).has(id);
  }

  /** Those of `ids` that are revoked or name no token. */
  inactiveAmong(ids: readonly string[]): Promise<Set<string>> {
    return this.store.inactiveAmong(ids);
  }

  /** Revoking a revoked token is a no-op; an unknown id is an error. */
  async revoke(id: string): Promise<void> {
    if (!(await this.store.revoke(id))) throw new AuthInputError(`unknown token id "${id}"`);
    this.revocations.emit('revoked', id);
  }
}

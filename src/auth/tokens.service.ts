import { Injectable } from '@nestjs/common';
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { GraphStore, RecordNode } from '../graph/graph-store';
import { Props } from '../items/bundle';
import { AuthInputError } from './auth-errors';
import { Role, isRole } from './roles';
import { UsersService } from './users.service';

export const TOKEN_RECORD_TYPE = 'AccessToken';

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

function optionalString(props: Props, key: string): string | undefined {
  const value = props[key];
  return typeof value === 'string' ? value : undefined;
}

function summaryOf(record: RecordNode): TokenSummary {
  const { props } = record;
  return {
    id: record.id,
    role: props.role as Role,
    user: optionalString(props, 'user'),
    name: optionalString(props, 'name'),
    created: String(props.created),
    revoked: props.revoked === true,
  };
}

/**
 * Bearer tokens (DESIGN.md §6): random, shown once by `create`, stored only as a SHA-256 hash in
 * an `AccessToken` record, compared in constant time, revocable.
 */
@Injectable()
export class TokensService {
  constructor(
    private readonly store: GraphStore,
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
    const props: Props = {
      hash: sha256(token).toString('hex'),
      role: request.role,
      created: new Date().toISOString(),
      revoked: false,
    };
    if (request.user !== undefined) props.user = request.user;
    if (request.name !== undefined) props.name = request.name;
    await this.store.write((tx) => tx.putRecords([{ id, type: TOKEN_RECORD_TYPE, props }]));
    return { id, token };
  }

  /** The grant of a valid, unrevoked token; `undefined` for anything else. */
  async verify(token: string): Promise<TokenGrant | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const presented = sha256(token);
    const { records } = await this.store.read((tx) =>
      tx.findRecords({ type: TOKEN_RECORD_TYPE, equals: { hash: presented.toString('hex') }, limit: 1 }),
    );
    const record = records[0];
    if (record === undefined) return undefined;
    const stored = Buffer.from(String(record.props.hash), 'hex');
    if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return undefined;
    const { id, role, user, revoked } = summaryOf(record);
    return revoked || !isRole(role) ? undefined : { id, role, user };
  }

  async list(): Promise<TokenSummary[]> {
    const { records } = await this.store.read((tx) =>
      tx.findRecords({ type: TOKEN_RECORD_TYPE, orderBy: { property: 'created' } }),
    );
    return records.map(summaryOf);
  }

  /** Revoking a revoked token is a no-op; an unknown id is an error. */
  async revoke(id: string): Promise<void> {
    await this.store.write(async (tx) => {
      const record = await tx.getRecord(id);
      if (record === undefined || record.type !== TOKEN_RECORD_TYPE) {
        throw new AuthInputError(`unknown token id "${id}"`);
      }
      await tx.putRecords([{ ...record, props: { ...record.props, revoked: true } }]);
    });
  }
}

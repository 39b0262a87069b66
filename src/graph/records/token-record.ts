import { Props } from '../../items/bundle';
import { RecordNode, RecordQuery } from '../records';
import { TokenRow } from '../token-store';

/** The record type tokens are kept under in the graph store (Neo4j; SQLite before its token file). */
export const TOKEN_RECORD_TYPE = 'AccessToken';

function optionalString(props: Props, key: string): string | undefined {
  const value = props[key];
  return typeof value === 'string' ? value : undefined;
}

export function tokenRecord(row: TokenRow): RecordNode {
  const { id, ...fields } = row;
  const props: Props = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return { id, type: TOKEN_RECORD_TYPE, props };
}

/** The token a record holds; undefined for any other record. */
export function tokenOf(record: RecordNode | undefined): TokenRow | undefined {
  if (record?.type !== TOKEN_RECORD_TYPE) return undefined;
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

/** The token revoked. */
export function revokedTokenRecord(record: RecordNode): RecordNode {
  return { ...record, props: { ...record.props, revoked: true } };
}

/** The query of every token, oldest first; with `hash`, of the token with that hash. */
export function tokenQuery(hash?: string): RecordQuery {
  return hash === undefined
    ? { type: TOKEN_RECORD_TYPE, orderBy: { property: 'created' } }
    : { type: TOKEN_RECORD_TYPE, equals: { hash }, limit: 1 };
}

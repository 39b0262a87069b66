import { TokenRow } from '../token-store';
import { revokedTokenRecord, TOKEN_RECORD_TYPE, tokenOf, tokenQuery, tokenRecord } from './token-record';

describe('token records', () => {
  const full: TokenRow = {
    id: 't1',
    hash: 'ab12',
    role: 'portal',
    user: 'alice',
    name: 'her site',
    created: '2026-01-01T00:00:00.000Z',
    revoked: false,
  };

  it('reads back a token as it was written, with or without its user and name', () => {
    expect(tokenOf(tokenRecord(full))).toEqual(full);
    const { user: _user, name: _name, ...bare } = full;
    const record = tokenRecord(bare);
    expect(record).toEqual({
      id: 't1',
      type: TOKEN_RECORD_TYPE,
      props: { hash: 'ab12', role: 'portal', created: full.created, revoked: false },
    });
    expect(tokenOf(record)).toEqual(bare);
  });

  it('reads a revoked token as revoked, and no token from another record', () => {
    expect(tokenOf(revokedTokenRecord(tokenRecord(full)))).toEqual({ ...full, revoked: true });
    expect(tokenOf({ id: 't1', type: 'ImportJob', props: {} })).toBeUndefined();
  });

  it('queries every token oldest first, or one by its hash', () => {
    expect(tokenQuery()).toEqual({ type: TOKEN_RECORD_TYPE, orderBy: { property: 'created' } });
    expect(tokenQuery('ab12')).toEqual({ type: TOKEN_RECORD_TYPE, equals: { hash: 'ab12' }, limit: 1 });
  });
});

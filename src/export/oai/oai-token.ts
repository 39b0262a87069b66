import { OaiError } from './oai-errors';

/**
 * Resumption tokens: the state of an incomplete list, carried by the harvester, none kept here.
 * The place in a list is a cursor, the last id answered, not an offset: items written or deleted
 * meanwhile by imports shift no page, so a harvest neither skips nor repeats a record that stays.
 * A token holds the arguments of the list it continues and when it stops being accepted.
 */

/** Where a list of records goes on: among the items, or among the deleted ones after them. */
export interface RecordCursor {
  phase: 'live' | 'deleted';
  /** The last id answered in that phase (an item's, or a tombstone record's); none: its start. */
  after?: string;
}

export interface RecordListState {
  verb: 'ListIdentifiers' | 'ListRecords';
  metadataPrefix: string;
  set?: string;
  from?: string;
  until?: string;
  cursor: RecordCursor;
}

export interface SetListState {
  verb: 'ListSets';
  /** The last repository whose set was answered. */
  after: string;
}

export type ListState = RecordListState | SetListState;

/** A token's state, with how many entries the answers before it gave (the `cursor` attribute). */
export interface TokenState {
  list: ListState;
  answered: number;
}

interface TokenBody extends TokenState {
  /** When the token stops being accepted, in milliseconds since the epoch. */
  expires: number;
}

export function encodeToken(state: TokenState, expires: Date): string {
  const body: TokenBody = { ...state, expires: expires.getTime() };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function bad(token: string, why: string): OaiError {
  const shown = token.length > 64 ? `${token.slice(0, 64)}…` : token;
  return new OaiError('badResumptionToken', `The resumption token "${shown}" ${why}`);
}

const optionalString = (value: unknown) => value === undefined || typeof value === 'string';

function isRecordList(list: Record<string, unknown>): boolean {
  const cursor = list.cursor as Record<string, unknown> | undefined;
  return (
    typeof list.metadataPrefix === 'string' &&
    optionalString(list.set) &&
    optionalString(list.from) &&
    optionalString(list.until) &&
    typeof cursor === 'object' &&
    cursor !== null &&
    (cursor.phase === 'live' || cursor.phase === 'deleted') &&
    optionalString(cursor.after)
  );
}

/**
 * The state a token of `verb` carries; badResumptionToken for one this provider did not make, one
 * of another verb, or one past its time.
 */
export function decodeToken(token: string, verb: ListState['verb'], now: Date): TokenState {
  let body: Partial<TokenBody> & { list?: Record<string, unknown> };
  try {
    if (!BASE64URL.test(token)) throw new Error('not base64url');
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as typeof body;
  } catch {
    throw bad(token, 'was not made by this provider');
  }
  const list = body?.list;
  if (
    typeof body !== 'object' ||
    body === null ||
    typeof body.expires !== 'number' ||
    typeof body.answered !== 'number' ||
    typeof list !== 'object' ||
    list === null ||
    !(list.verb === 'ListSets' ? typeof list.after === 'string' : isRecordList(list))
  ) {
    throw bad(token, 'was not made by this provider');
  }
  if (list.verb !== verb) throw bad(token, `continues ${String(list.verb)}, not ${verb}`);
  if (body.expires < now.getTime()) {
    throw bad(token, `expired at ${new Date(body.expires).toISOString()}: start the list again`);
  }
  return { list: list as unknown as ListState, answered: body.answered };
}

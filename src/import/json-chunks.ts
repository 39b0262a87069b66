import { WalkedIds } from '../import-logs/walked-ids';

/**
 * A value's JSON text in pieces of about `chunkChars` characters: together, what `JSON.stringify`
 * writes. An import's answer lists every id it touched (tens of megabytes of JSON for a finding
 * aid of a million units); sent in pieces, it is never in memory whole, as text or as bytes.
 */
export function* jsonChunks(value: unknown, chunkChars = 64 * 1024): Generator<string> {
  const pending: string[] = [];
  let pendingChars = 0;
  const json = jsonValue(value, '');
  if (omitted(json)) return;
  for (const piece of pieces(json)) {
    pending.push(piece);
    pendingChars += piece.length;
    if (pendingChars >= chunkChars) {
      yield pending.join('');
      pending.length = 0;
      pendingChars = 0;
    }
  }
  if (pending.length > 0) yield pending.join('');
}

/**
 * The value `JSON.stringify` writes for `value`, the member `key` of its holder: its `toJSON`; a
 * walked list is written as it is walked instead.
 */
function jsonValue(value: unknown, key: string): unknown {
  if (value instanceof WalkedIds) return value;
  const toJson = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJson === 'function' ? (toJson as (key: string) => unknown).call(value, key) : value;
}

/** Whether `JSON.stringify` leaves the value out of an object (and writes null in a list). */
function omitted(json: unknown): boolean {
  return json === undefined || typeof json === 'function' || typeof json === 'symbol';
}

/** The JSON text of a value `jsonValue` gave, which is not `omitted`, as pieces. */
function* pieces(json: unknown): Generator<string> {
  if (json instanceof WalkedIds) {
    let first = true;
    for (const id of json) {
      yield first ? `[${JSON.stringify(id)}` : `,${JSON.stringify(id)}`;
      first = false;
    }
    yield first ? '[]' : ']';
  } else if (Array.isArray(json)) {
    yield '[';
    for (let index = 0; index < json.length; index++) {
      if (index > 0) yield ',';
      const element = jsonValue(json[index], String(index));
      if (omitted(element)) yield 'null';
      else yield* pieces(element);
    }
    yield ']';
  } else if (json !== null && typeof json === 'object' && !isBoxed(json)) {
    yield '{';
    let first = true;
    for (const [key, memberValue] of Object.entries(json)) {
      const member = jsonValue(memberValue, key);
      if (omitted(member)) continue;
      yield first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`;
      first = false;
      yield* pieces(member);
    }
    yield '}';
  } else {
    yield JSON.stringify(json);
  }
}

/** A `String`, `Number` or `Boolean` object, which JSON writes as its primitive. */
function isBoxed(value: object): boolean {
  return value instanceof String || value instanceof Number || value instanceof Boolean;
}

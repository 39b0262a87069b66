import { QUERY_FIELDS, QueryField, TextQuery } from '../graph/text-query';
import { InvalidParameterException } from './invalid-parameter';

/**
 * The portal's query syntax, as the reference's search box takes it: words (each the start of an
 * indexed word, all required), `"phrases"`, `prefix*`, `AND`, `OR`, `NOT` and `-word`, parentheses
 * and field queries (`name:`, `scopeAndContent:`, `identifier:`). `AND` binds tighter than `OR`;
 * words side by side are AND-ed.
 */

type Token =
  | { kind: 'open' | 'close' | 'and' | 'or' | 'not' | 'minus' }
  | { kind: 'text'; text: string; quoted: boolean; field?: QueryField };

/** Letters, digits and combining marks: a text without any has no word to look for. */
const WORD = /[\p{L}\p{N}\p{M}]/u;
const FIELD_PREFIX = new RegExp(`^(${QUERY_FIELDS.join('|')}):`);
const OPERATORS: Readonly<Record<string, 'and' | 'or' | 'not'>> = { AND: 'and', OR: 'or', NOT: 'not' };

function malformed(detail: string): InvalidParameterException {
  return new InvalidParameterException('q', `malformed query: ${detail}`);
}

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < q.length) {
    const char = q[at];
    if (/\s/.test(char)) {
      at++;
    } else if (char === '(' || char === ')') {
      tokens.push({ kind: char === '(' ? 'open' : 'close' });
      at++;
    } else if (char === '-' && at + 1 < q.length && !/\s/.test(q[at + 1])) {
      tokens.push({ kind: 'minus' });
      at++;
    } else {
      at = readText(q, at, tokens);
    }
  }
  return tokens;
}

/** Reads a word, a phrase or a field query at `at`; returns where it ends. */
function readText(q: string, at: number, tokens: Token[]): number {
  const field = FIELD_PREFIX.exec(q.slice(at))?.[1] as QueryField | undefined;
  const start = field === undefined ? at : at + field.length + 1;
  if (q[start] === '"') {
    const end = q.indexOf('"', start + 1);
    if (end === -1) throw malformed(`the quote at character ${start + 1} is never closed`);
    tokens.push({ kind: 'text', text: q.slice(start + 1, end), quoted: true, field });
    return end + 1;
  }
  let end = start;
  while (end < q.length && !/[\s()"]/.test(q[end])) end++;
  const text = q.slice(start, end);
  if (field !== undefined && text === '') throw malformed(`"${field}:" is followed by nothing to look for`);
  // Own keys only: a word such as `constructor` is a word, not something Object.prototype has.
  const operator = field === undefined && Object.hasOwn(OPERATORS, text) ? OPERATORS[text] : undefined;
  tokens.push(operator === undefined ? { kind: 'text', text, quoted: false, field } : { kind: operator });
  return end;
}

/** A recursive descent over the tokens: or := and (OR and)*; and := unary+ (AND between allowed). */
class QueryParser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): TextQuery | undefined {
    const query = this.or();
    const rest = this.tokens[this.at];
    if (rest !== undefined)
      throw malformed(rest.kind === 'close' ? 'a ")" without its "("' : 'unexpected text');
    return query;
  }

  private or(): TextQuery | undefined {
    const clauses = [this.and()];
    while (this.peek() === 'or') {
      this.at++;
      clauses.push(this.and());
    }
    const kept = clauses.filter((clause) => clause !== undefined);
    if (kept.length < clauses.length && clauses.length > 1) throw malformed('an OR side has no word');
    return kept.length > 1 ? { kind: 'or', clauses: kept } : kept[0];
  }

  private and(): TextQuery | undefined {
    const clauses: (TextQuery | undefined)[] = [];
    for (;;) {
      const next = this.peek();
      if (next === undefined || next === 'or' || next === 'close') break;
      if (next === 'and') {
        if (clauses.length === 0) throw malformed('AND has nothing before it');
        this.at++;
        const after = this.peek();
        if (after === undefined || after === 'or' || after === 'close' || after === 'and') {
          throw malformed('AND has nothing after it');
        }
        continue;
      }
      clauses.push(this.unary());
    }
    if (clauses.length === 0) throw malformed(this.at === 0 ? 'nothing to look for' : 'an empty clause');
    const kept = clauses.filter((clause) => clause !== undefined);
    if (kept.length > 0 && kept.every((clause) => clause.kind === 'not')) {
      throw malformed('NOT and "-" exclude from what other words find; give at least one word to find');
    }
    return kept.length > 1 ? { kind: 'and', clauses: kept } : kept[0];
  }

  private unary(): TextQuery | undefined {
    const token = this.tokens[this.at++];
    if (token.kind === 'not' || token.kind === 'minus') {
      if (this.tokens[this.at] === undefined)
        throw malformed(`${token.kind === 'not' ? 'NOT' : '"-"'} has nothing after it`);
      const clause = this.unary();
      return clause === undefined ? undefined : { kind: 'not', clause };
    }
    if (token.kind === 'open') {
      const inner = this.or();
      if (this.tokens[this.at++]?.kind !== 'close') throw malformed('a "(" is never closed');
      return inner;
    }
    if (token.kind !== 'text')
      throw malformed(`unexpected ${token.kind === 'close' ? '")"' : token.kind.toUpperCase()}`);
    if (!WORD.test(token.text)) return undefined;
    const field = token.field === undefined ? {} : { field: token.field };
    // A trailing `*` asks for a prefix, which every unquoted word is already.
    if (token.quoted) return { kind: 'phrase', text: token.text, ...field };
    return { kind: 'words', text: token.text.replace(/\*+$/, ''), ...field };
  }

  private peek(): Token['kind'] | undefined {
    return this.tokens[this.at]?.kind;
  }
}

/**
 * The query `q` states; undefined when it has no word to look for (every item matches). Throws a
 * 400 naming `q` and what is wrong when the query is malformed.
 */
export function parseQuery(q: string): TextQuery | undefined {
  return new QueryParser(tokenize(q)).parse();
}

/** Whether `q` is words alone, with no field, phrase, operator or parenthesis: a plain text search. */
export function isPlainWords(q: string): boolean {
  return tokenize(q).every((token) => token.kind === 'text' && !token.quoted && token.field === undefined);
}

/**
 * General entities declared in a document's internal DTD subset. saxes resolves only the five
 * predefined entities and character references; this module adds the internal ones, expanded
 * with the limits the JDK's parser applies by default, so that a "billion laughs" document fails
 * quickly instead of exhausting memory. External entities (SYSTEM or PUBLIC) are never fetched:
 * like the reference system, which resolves every external entity to an empty document, their
 * references expand to nothing. External DTDs are never read, so an entity declared only there is
 * undefined, as it is for the reference.
 */

/** Thrown when a document declares or uses its entities in a way this parser refuses. */
export class EntityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EntityError';
  }
}

export interface EntityLimits {
  /** Entity references expanded in one document, nested ones included (JDK default: 64,000). */
  maxExpansions: number;
  /** Characters produced by entity expansion in one document. */
  maxCharacters: number;
}

export const DEFAULT_ENTITY_LIMITS: EntityLimits = { maxExpansions: 64_000, maxCharacters: 10_000_000 };

const PREDEFINED: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

const COMMENT = /<!--[\s\S]*?-->/g;
const ENTITY_DECLARATION =
  /<!ENTITY\s+(%\s+)?([^\s%&;"'<>]+)\s+(?:"([^"]*)"|'([^']*)'|((?:SYSTEM|PUBLIC)\b[^>]*))\s*>/g;
const REFERENCE = /&(#x[0-9a-fA-F]+|#[0-9]+|[^\s&;]+);/g;

interface Declarations {
  /** Replacement text of internal general entities, as written (references unexpanded). */
  internal: Map<string, string>;
  external: Set<string>;
}

/** The internal subset of a DOCTYPE as saxes reports it (`name PUBLIC "…" "…" [ … ]`). */
function internalSubset(doctype: string): string {
  let quote: string | undefined;
  for (let index = 0; index < doctype.length; index++) {
    const character = doctype[index];
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
    } else if (character === '"' || character === "'") {
      quote = character;
    } else if (character === '[') {
      const end = doctype.lastIndexOf(']');
      return end > index ? doctype.slice(index + 1, end) : '';
    }
  }
  return '';
}

function parseDeclarations(doctype: string): Declarations {
  const declarations: Declarations = { internal: new Map(), external: new Set() };
  const subset = internalSubset(doctype).replace(COMMENT, '');
  for (const match of subset.matchAll(ENTITY_DECLARATION)) {
    const [, parameterMarker, name, doubleQuoted, singleQuoted, externalId] = match;
    // Parameter entities only matter inside the DTD, which is not interpreted; the first
    // declaration of a general entity is binding (XML 1.0 §4.2).
    if (parameterMarker !== undefined || declarations.internal.has(name) || declarations.external.has(name)) {
      continue;
    }
    if (externalId !== undefined) declarations.external.add(name);
    else declarations.internal.set(name, doubleQuoted ?? singleQuoted);
  }
  return declarations;
}

function characterReference(reference: string): string {
  const code = reference[1] === 'x' ? parseInt(reference.slice(2), 16) : parseInt(reference.slice(1), 10);
  try {
    return String.fromCodePoint(code);
  } catch {
    throw new EntityError(`Malformed character reference &${reference};`);
  }
}

/** Expands declared entities within one document, charging every expansion to its limits. */
class EntityExpander {
  private expansions = 0;
  private characters = 0;
  private readonly expanded = new Map<string, string>();

  constructor(
    private readonly declarations: Declarations,
    private readonly limits: EntityLimits,
  ) {}

  /** The text a reference to `name` in the document stands for. */
  reference(name: string): string {
    const text = this.replacementText(name, []);
    this.charge(text.length);
    return text;
  }

  private charge(characters: number): void {
    this.expansions += 1;
    this.characters += characters;
    if (this.expansions > this.limits.maxExpansions) {
      throw new EntityError(
        `Entity expansion limit exceeded: more than ${this.limits.maxExpansions} expansions`,
      );
    }
    if (this.characters > this.limits.maxCharacters) {
      throw new EntityError(
        `Entity expansion limit exceeded: more than ${this.limits.maxCharacters} characters of expanded entities`,
      );
    }
  }

  private replacementText(name: string, open: readonly string[]): string {
    if (this.declarations.external.has(name)) return '';
    const known = this.expanded.get(name);
    if (known !== undefined) return known;
    const value = this.declarations.internal.get(name);
    if (value === undefined) throw new EntityError(`Undefined entity &${name};`);
    if (open.includes(name)) throw new EntityError(`Recursive entity reference &${name};`);
    const text = this.expandValue(value, [...open, name]);
    this.expanded.set(name, text);
    return text;
  }

  private expandValue(value: string, open: readonly string[]): string {
    const parts: string[] = [];
    let last = 0;
    for (const match of value.matchAll(REFERENCE)) {
      const reference = match[1];
      parts.push(value.slice(last, match.index));
      last = match.index + match[0].length;
      if (reference.startsWith('#')) {
        parts.push(characterReference(reference));
        continue;
      }
      const predefined = PREDEFINED.get(reference);
      if (predefined !== undefined) {
        parts.push(predefined);
        continue;
      }
      const text = this.replacementText(reference, open);
      // Charged before it is appended, so that the limit stops a growing expansion early.
      this.charge(text.length);
      parts.push(text);
    }
    parts.push(value.slice(last));
    return parts.join('');
  }
}

/**
 * Makes the general entities that `doctype` (saxes's DOCTYPE text) declares resolvable through
 * `entities` (a saxes parser's `ENTITIES`). Each lookup expands lazily and counts against `limits`;
 * an entity's expansion is computed once.
 */
export function declareEntities(
  entities: Record<string, string>,
  doctype: string,
  limits: EntityLimits = DEFAULT_ENTITY_LIMITS,
): void {
  const declarations = parseDeclarations(doctype);
  const expander = new EntityExpander(declarations, limits);
  for (const name of [...declarations.internal.keys(), ...declarations.external]) {
    if (PREDEFINED.has(name)) continue;
    Object.defineProperty(entities, name, { get: () => expander.reference(name), enumerable: true });
  }
}

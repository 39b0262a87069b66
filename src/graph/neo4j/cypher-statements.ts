import {
  CHILD_EDGE_TYPES,
  DEPENDENT_RELATIONS,
  DependentRelation,
  ITEM_EDGE_TYPES,
} from '../../items/item-types';
import { DEPENDENT_LABEL, ITEM_LABEL, OWNER, PENDING_LABEL } from './graph-model';

/**
 * Every Cypher statement the Neo4j adapter can send. Labels and relationship types that vary are
 * spelled out at module load from the fixed lists of the item model, never from input, so the
 * lint test (`test/graph/cypher-lint.spec.ts`) sees each statement exactly as it is sent.
 */
export interface CypherStatement<P extends string = string> {
  readonly name: string;
  readonly text: string;
  /** The `$parameters` the text uses, all of which the caller must give. */
  readonly parameters: readonly P[];
}

const registry: CypherStatement[] = [];

/**
 * Every statement made with `statement`, for the runner and the lint test: complete once `cypher.ts`
 * is loaded, which loads the statements that read too.
 */
export const ALL_STATEMENTS: readonly CypherStatement[] = registry;

export function statement<const P extends string>(
  name: string,
  parameters: readonly P[],
  text: string,
): CypherStatement<P> {
  const defined = { name, parameters, text: text.trim().replace(/\s+/g, ' ') };
  registry.push(defined);
  return defined;
}

/** One statement per member of a fixed list (a label or a relationship type). */
export function statementPer<K extends string, const P extends string>(
  names: readonly K[],
  family: string,
  parameters: readonly P[],
  text: (name: K) => string,
): Record<K, CypherStatement<P>> {
  return Object.fromEntries(
    names.map((name) => [name, statement(`${family}[${identifier(name)}]`, parameters, text(name))]),
  ) as Record<K, CypherStatement<P>>;
}

/** Names spliced into Cypher come from the model; this keeps a bad one from ever reaching a query. */
export function identifier(name: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`Not a plain Cypher identifier: ${name}`);
  return name;
}

export const DEPENDENT_RELATION_NAMES = Object.keys(DEPENDENT_RELATIONS) as DependentRelation[];
export const CHILD_EDGES = CHILD_EDGE_TYPES.map(identifier).join('|');
export const ITEM_EDGES = ITEM_EDGE_TYPES.map(identifier).join('|');
export const DEPENDENT_EDGES = DEPENDENT_RELATION_NAMES.map(identifier).join('|');

/** `REMOVE` of every type label but `type`, so a node whose type changed keeps one type label. */
export function removeOtherLabels(variable: string, labels: readonly string[], type: string): string {
  return `REMOVE ${variable}:${labels
    .filter((label) => label !== type)
    .map(identifier)
    .join(':')}`;
}

/**
 * The hint that `variable`, of `label`, is found by seeking its index on `property`. Every lookup
 * by key carries one: on index statistics not yet sampled after a large write, Neo4j's planner
 * scanned a whole index for each row, and an import slowed to a crawl.
 */
export function indexSeek(variable: string, label: string, property: string): string {
  return `USING INDEX SEEK ${variable}:${label}(${property})`;
}

/**
 * Matches `variable` to the dependent whose id is `idExpression` (of the owner `ownerExpression`,
 * when given), seeking the id index (see `indexSeek`).
 */
export function matchDependent(variable: string, idExpression: string, ownerExpression?: string): string {
  const owner = ownerExpression === undefined ? '' : ` WHERE ${variable}.${OWNER} = ${ownerExpression}`;
  return `MATCH (${variable}:${DEPENDENT_LABEL} {id: ${idExpression}})
    ${indexSeek(variable, DEPENDENT_LABEL, 'id')}${owner}`;
}

/**
 * Matches `variable` to each dependent of the owner `ownerExpression`, then `pattern` from it,
 * seeking the owner index (see `indexSeek`).
 */
export function matchDependentsOf(variable: string, ownerExpression: string, pattern = ''): string {
  return `MATCH (${variable}:${DEPENDENT_LABEL} {${OWNER}: ${ownerExpression}})${pattern}
    ${indexSeek(variable, DEPENDENT_LABEL, OWNER)}`;
}

/**
 * The hint that `variable`, an item matched by id, is found by seeking the id index: on stale
 * statistics the planner scanned even that unique index, as the start of a pattern or its end.
 */
export function seekItem(variable: string): string {
  return indexSeek(variable, ITEM_LABEL, 'id');
}

/** Matches `variable` to the item whose id is `idExpression`, seeking the id index (see `seekItem`). */
export function matchItem(variable: string, idExpression: string): string {
  return `MATCH (${variable}:${ITEM_LABEL} {id: ${idExpression}}) ${seekItem(variable)}`;
}

/** The UNION branches that bind `variable` to the item or the dependent whose id is `idExpression`. */
export function writtenNodeBranches(variable: string, idExpression: string): string {
  return `${matchItem(variable, idExpression)} RETURN ${variable}
    UNION
    ${matchDependent(variable, idExpression)} RETURN ${variable}`;
}

/**
 * Binds `variable` to the item or dependent whose id is `idExpression`: item edges point at items,
 * and `hasLinkBody` at an access point, which is a dependent.
 */
export function nodeWithId(variable: string, idExpression: string, imported: string): string {
  return `CALL (${imported}) {
    ${writtenNodeBranches(variable, idExpression)}
  }`;
}

/**
 * Binds `variable` as `nodeWithId` does or, while no such node is written, to the placeholder that
 * stands for it, created if need be. `imported` is a variable that `idExpression` is built from.
 */
export function nodeOrPlaceholderWithId(variable: string, idExpression: string, imported: string): string {
  return `CALL (${imported}) {
    ${writtenNodeBranches(variable, idExpression)}
    UNION
    WITH ${imported}
    WHERE NOT EXISTS { ${matchItem('writtenItem', idExpression)} }
      AND NOT EXISTS { ${matchDependent('written', idExpression)} }
    MERGE (${variable}:${PENDING_LABEL} {id: ${idExpression}})
    RETURN ${variable}
  }`;
}

/**
 * Whether `variable`, the target of an item edge, is a written item or dependent. Item edges end
 * at those or at placeholders, so a placeholder is the target that is neither: no statement looks
 * placeholders up by their label but to find which new nodes take one over, they are reached
 * through the edges that point at them.
 */
export function isWritten(variable: string): string {
  return `(${variable}:${ITEM_LABEL} OR ${variable}:${DEPENDENT_LABEL})`;
}

/** Deletes the placeholders among `variable`'s nodes that no edge points at any more. */
export function deleteUnusedPlaceholders(variable: string): string {
  return `WITH DISTINCT ${variable}
    WHERE NOT ${isWritten(variable)} AND NOT EXISTS { (${variable})--() }
    DELETE ${variable}`;
}

/**
 * Makes the node of `props.id` exist under `label` before it is matched there: the placeholder
 * that earlier edges point at becomes it (MERGE finds it) or, with none, a new node is made. Runs
 * only while no node matches `written`, so a placeholder never coexists with its node.
 */
export function claimPlaceholder(label: string, written: string, setAlso = ''): string {
  return `CALL (props) {
    WITH props WHERE NOT EXISTS { ${written} }
    MERGE (claimed:${PENDING_LABEL} {id: props.id})
    SET claimed:${identifier(label)}${setAlso}
    REMOVE claimed:${PENDING_LABEL}
  }`;
}

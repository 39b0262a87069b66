import { ItemWrite } from '../../src/graph/graph-store';
import { flattenItem } from '../../src/graph/neo4j/bundle-rows';
import { DEPENDENT_LABEL, ITEM_LABEL } from '../../src/graph/neo4j/graph-model';
import { DEPENDENT_RELATIONS, DependentRelation } from '../../src/items/item-types';
import { benchNeo4jDriver } from './bench-store';

/** Rows per statement, as the adapter sends them. */
const BATCH_SIZE = 1000;

/**
 * The floor of an import on Neo4j: the nodes and relationships the adapter writes for `writes`
 * (items, dependents, the links inside bundles, item edges, with the same properties), created by
 * bare `UNWIND … CREATE` batches in one transaction, with none of the adapter's matching,
 * merging, pruning or placeholders. Times the transaction alone, commit included.
 */
export async function bareUnwindImport(writes: readonly ItemWrite[]): Promise<Record<string, number>> {
  const flat = writes.map(flattenItem);
  const statements: { text: string; rows: unknown[] }[] = [];
  const add = (text: string, rows: unknown[]) => {
    for (let start = 0; start < rows.length; start += BATCH_SIZE)
      statements.push({ text, rows: rows.slice(start, start + BATCH_SIZE) });
  };
  for (const [type, rows] of groupBy(flat, (bundle) => bundle.item.type)) {
    add(
      `UNWIND $rows AS props CREATE (n:${ITEM_LABEL}:${type}) SET n = props`,
      rows.map((bundle) => bundle.item.props),
    );
  }
  const dependents = flat.flatMap((bundle) => bundle.dependents);
  for (const [type, rows] of groupBy(dependents, (dependent) => dependent.type)) {
    add(
      `UNWIND $rows AS props CREATE (n:${DEPENDENT_LABEL}:${type}) SET n = props`,
      rows.map((dependent) => dependent.props),
    );
  }
  const links = flat.flatMap((bundle) => bundle.links);
  for (const [key, rows] of groupBy(links, (link) => `${link.relation}:${link.parent === undefined}`)) {
    const relation = key.split(':')[0] as DependentRelation;
    const parent =
      rows[0].parent === undefined
        ? `(parent:${ITEM_LABEL} {id: row.owner})`
        : `(parent:${DEPENDENT_LABEL} {id: row.parent})`;
    const [from, to] = DEPENDENT_RELATIONS[relation] === 'out' ? ['parent', 'child'] : ['child', 'parent'];
    add(
      `UNWIND $rows AS row MATCH ${parent} MATCH (child:${DEPENDENT_LABEL} {id: row.child})
       CREATE (${from})-[:${relation}]->(${to})`,
      rows.map(({ owner, parent: parentId, child }) => ({ owner, parent: parentId ?? null, child })),
    );
  }
  const edges = writes.flatMap(({ bundle, edges = {} }) =>
    Object.entries(edges).flatMap(([type, targets]) => targets.map((to) => ({ type, from: bundle.id, to }))),
  );
  for (const [type, rows] of groupBy(edges, (edge) => edge.type)) {
    add(
      `UNWIND $rows AS row MATCH (source:${ITEM_LABEL} {id: row.from}) MATCH (target:${ITEM_LABEL} {id: row.to})
       CREATE (source)-[:${type}]->(target)`,
      rows.map(({ from, to }) => ({ from, to })),
    );
  }

  const driver = benchNeo4jDriver();
  const session = driver.session();
  try {
    const started = performance.now();
    const transaction = session.beginTransaction();
    for (const { text, rows } of statements) await transaction.run(text, { rows });
    await transaction.commit();
    return {
      ms: Math.round(performance.now() - started),
      statements: statements.length,
      nodes: flat.length + dependents.length,
      relationships: links.length + edges.length,
    };
  } finally {
    await session.close();
    await driver.close();
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

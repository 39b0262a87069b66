import { CHILD_EDGE_TYPES, DEPENDENT_RELATIONS, DependentRelation } from '../../items/item-types';

/** An SQL list of constant names (never user input): `'a', 'b'`. */
export function sqlList(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

const relationsPointing = (direction: 'in' | 'out') =>
  (Object.keys(DEPENDENT_RELATIONS) as DependentRelation[]).filter(
    (relation) => DEPENDENT_RELATIONS[relation] === direction,
  );

/**
 * Dependent relations whose edge points from the owning node to the dependent (schema versions
 * before 3 kept dependent relations as edges).
 */
export const OUT_RELATIONS = sqlList(relationsPointing('out'));
/** Dependent relations whose edge points from the dependent to the owning node (before version 3). */
export const IN_RELATIONS = sqlList(relationsPointing('in'));
export const CHILD_EDGES = sqlList(CHILD_EDGE_TYPES);

/** Orders an item's parent edges: the first of CHILD_EDGE_TYPES is the parent that counts. */
export const CHILD_EDGE_RANK = `CASE type ${CHILD_EDGE_TYPES.map((type, rank) => `WHEN '${type}' THEN ${rank}`).join(' ')} END`;

/** The id of an item's parent: its first child edge's target. */
export const SELECT_PARENT_ID = `
  SELECT dst FROM edge WHERE src = ? AND type IN (${CHILD_EDGES}) ORDER BY ${CHILD_EDGE_RANK}, dst LIMIT 1`;

export const SELECT_PATH = 'SELECT path FROM item WHERE id = ?';

/** Whether the item `id` names (an SQL expression) is written. */
export const itemExists = (id: string) => `EXISTS (SELECT 1 FROM item WHERE id = ${id})`;

/**
 * Whether the node `id` names is written: an item, or an access point (the only dependents that
 * edges point at: link bodies). An edge is seen only while its target is written; its source is an
 * item by construction.
 */
export const isWritten = (id: string) =>
  `(${itemExists(id)} OR EXISTS (SELECT 1 FROM dependent WHERE id = ${id} AND type = 'AccessPoint'))`;

/** Full-text weight of an item's names against its other text. */
export const NAME_WEIGHT = 10;

/** Binds a list as one JSON parameter: `IN (SELECT value FROM json_each(?))`. */
export const IN_JSON = 'IN (SELECT value FROM json_each(?))';

/** `(?, ?), (?, ?)`: `rows` rows of `width` parameters, for a VALUES list. */
export function parameterRows(rows: number, width: number): string {
  const row = `(${new Array<string>(width).fill('?').join(', ')})`;
  return new Array<string>(rows).fill(row).join(', ');
}

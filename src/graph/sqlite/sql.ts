import {
  CHILD_EDGE_TYPES,
  DEPENDENT_RELATIONS,
  DependentRelation,
  ITEM_EDGE_TYPES,
} from '../../items/item-types';

/** An SQL list of constant names (never user input): `'a', 'b'`. */
export function sqlList(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

const relationsPointing = (direction: 'in' | 'out') =>
  (Object.keys(DEPENDENT_RELATIONS) as DependentRelation[]).filter(
    (relation) => DEPENDENT_RELATIONS[relation] === direction,
  );

/** Dependent relations whose edge points from the owning node to the dependent. */
export const OUT_RELATIONS = sqlList(relationsPointing('out'));
/** Dependent relations whose edge points from the dependent to the owning node. */
export const IN_RELATIONS = sqlList(relationsPointing('in'));
export const CHILD_EDGES = sqlList(CHILD_EDGE_TYPES);
export const ITEM_EDGES = sqlList(ITEM_EDGE_TYPES);

/** Orders an item's parent edges: the first of CHILD_EDGE_TYPES is the parent that counts. */
export const CHILD_EDGE_RANK = `CASE type ${CHILD_EDGE_TYPES.map((type, rank) => `WHEN '${type}' THEN ${rank}`).join(' ')} END`;

/** The id of an item's parent: its first child edge's target. */
export const SELECT_PARENT_ID = `
  SELECT dst FROM edge WHERE src = ? AND type IN (${CHILD_EDGES}) ORDER BY ${CHILD_EDGE_RANK}, dst LIMIT 1`;

export const SELECT_PATH = 'SELECT path FROM node WHERE id = ? AND owner IS NULL';

/** Full-text weight of an item's names against its other text. */
export const NAME_WEIGHT = 10;

/** Binds a list as one JSON parameter: `IN (SELECT value FROM json_each(?))`. */
export const IN_JSON = 'IN (SELECT value FROM json_each(?))';

import { DEPENDENT_LABEL, ID, ITEM_LABEL, TYPE } from './graph-model';
import { CHILD_EDGES } from './cypher-statements';

/** Expressions of a search hit `node` that the search statements and the page statements share. */

/** The descriptions of `node`. */
export const DESCRIPTIONS = `(description:${DEPENDENT_LABEL})-[:describes]->(node)`;
/** A country is its own country; anything else is in the country its hierarchy ends at. */
export const COUNTRY = `CASE WHEN node.${TYPE} = 'Country' THEN node.id
  ELSE COLLECT { MATCH (node)-[:${CHILD_EDGES}*]->(country:Country) RETURN country.id LIMIT 1 }[0] END`;
/** A unit's holder: the repository its hierarchy reaches. */
export const HOLDER = `CASE WHEN node.${TYPE} = 'DocumentaryUnit'
  THEN COLLECT { MATCH (node)-[:childOf*0..]->(:${ITEM_LABEL})-[:heldBy]->(holder:Repository) RETURN holder.id LIMIT 1 }[0] END`;
/** The smallest of the names of a unit's holder's descriptions, case folded. */
export const HOLDER_NAME = `CASE WHEN node.${TYPE} = 'DocumentaryUnit'
  THEN COLLECT { MATCH (node)-[:childOf*0..]->(:${ITEM_LABEL})-[:heldBy]->(holder:Repository)
    MATCH (holderDescription:${DEPENDENT_LABEL})-[:describes]->(holder)
    RETURN toLower(holderDescription.name) AS name ORDER BY name LIMIT 1 }[0] END`;
/** The characters of the text values of an item's descriptions, bookkeeping aside. */
export const DETAIL = `reduce(total = 0, length IN COLLECT { MATCH ${DESCRIPTIONS}
    UNWIND keys(description) AS key
    WITH description[key] AS value, key
    WHERE key <> '${ID}' AND NOT key STARTS WITH '_' AND value IS :: STRING
    RETURN size(value) } | total + length)`;
/** The item's children, as `COUNT_CHILDREN` counts them. */
export const HOLDINGS = `COUNT { MATCH (node)<-[:${CHILD_EDGES}]-(child:${ITEM_LABEL}) RETURN DISTINCT child }`;
/** The smallest of an item's names, case folded: its descriptions', or else its own (a country's). */
export const NAME = `coalesce(
  COLLECT { MATCH ${DESCRIPTIONS} RETURN toLower(description.name) AS name ORDER BY name LIMIT 1 }[0],
  toLower(node.name), '')`;

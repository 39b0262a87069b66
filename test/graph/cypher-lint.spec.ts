import {
  CypherVersion,
  DbSchema,
  lintCypherQuery,
  parseParameters,
  testData,
} from '@neo4j-cypher/language-support';
import { ALL_STATEMENTS, CypherStatement } from '../../src/graph/neo4j/cypher';
import {
  DEPENDENT_LABEL,
  ITEM_LABEL,
  PENDING_LABEL,
  RECORD_LABEL,
  WRITE_LOCK_LABEL,
} from '../../src/graph/neo4j/graph-model';
import {
  DEPENDENT_RELATIONS,
  DEPENDENT_TYPES,
  ITEM_EDGE_TYPES,
  ITEM_TYPES,
} from '../../src/items/item-types';

/**
 * Every statement the Neo4j adapter can send, through Neo4j's own parser and semantic analysis,
 * without a server: a typo shows here at once, before the Neo4j run (`npm run test:neo4j`) sends
 * the statements to a live server.
 *
 * The function and procedure lists are those of a Neo4j 5 server as `@neo4j-cypher/language-support`
 * ships them (`testData.mockSchema`), so a function Neo4j lacks is an error too. Labels and
 * relationship types are the adapter's own, so a misspelt one is flagged. Statements are checked
 * under Cypher 5 (Neo4j 5.26, and 2025.x by default) and Cypher 25 (2025.x databases set to it).
 */
const CYPHER_VERSIONS: CypherVersion[] = ['CYPHER 5', 'CYPHER 25'];

function schema(version: CypherVersion, parameters: readonly string[]): DbSchema {
  const { functions, procedures } = testData.mockSchema;
  return {
    defaultLanguage: version,
    functions: { [version]: functions?.[version] },
    procedures: { [version]: procedures?.[version] },
    labels: [
      ITEM_LABEL,
      DEPENDENT_LABEL,
      RECORD_LABEL,
      WRITE_LOCK_LABEL,
      PENDING_LABEL,
      ...ITEM_TYPES,
      ...DEPENDENT_TYPES,
    ],
    relationshipTypes: [...ITEM_EDGE_TYPES, ...Object.keys(DEPENDENT_RELATIONS)],
    parameters: Object.fromEntries(parameters.map((name) => [name, null])),
  };
}

function diagnostics(
  text: string,
  parameters: readonly string[],
  version: CypherVersion = 'CYPHER 5',
): string[] {
  return lintCypherQuery(text, schema(version, parameters)).diagnostics.map(({ message }) =>
    typeof message === 'string' ? message : message.value,
  );
}

const statements = ALL_STATEMENTS.map((statement): [string, CypherStatement] => [statement.name, statement]);

describe('Cypher statements of the Neo4j adapter', () => {
  it('are all enumerated, each family member included', () => {
    const names = statements.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const type of ITEM_TYPES) expect(names).toContain(`MERGE_ITEMS[${type}]`);
    for (const type of ITEM_EDGE_TYPES) expect(names).toContain(`ADD_EDGES[${type}]`);
  });

  describe.each(CYPHER_VERSIONS)('under %s', (version) => {
    it.each(statements)('%s lints with no diagnostic', (_name, statement) => {
      expect(diagnostics(statement.text, statement.parameters, version)).toEqual([]);
    });
  });

  it.each(statements)('%s declares exactly the parameters it uses', (_name, statement) => {
    expect(parseParameters(statement.text, false).sort()).toEqual([...statement.parameters].sort());
  });
});

describe('the Cypher lint itself', () => {
  it('accepts a well-formed statement (the control for the cases below)', () => {
    expect(diagnostics('UNWIND $ids AS id MATCH (n:Item {id: id}) RETURN toLower(n.id)', ['ids'])).toEqual(
      [],
    );
  });

  it('flags a function Neo4j does not have', () => {
    expect(diagnostics('UNWIND $ids AS id RETURN toLowr(id)', ['ids'])).toEqual([
      expect.stringContaining('Function toLowr is not present in the database'),
    ]);
  });

  it('flags a procedure Neo4j does not have', () => {
    const text = "CALL db.index.fulltext.queryNode('item_search', $query) YIELD node RETURN node";
    expect(diagnostics(text, ['query'])).toEqual([
      expect.stringContaining('Procedure db.index.fulltext.queryNode is not present in the database'),
    ]);
  });

  it('flags an undeclared parameter', () => {
    expect(diagnostics('UNWIND $idz AS id MATCH (n:Item {id: id}) RETURN n', ['ids'])).toEqual([
      'Parameter $idz is not defined.',
    ]);
  });

  it('flags a syntax error', () => {
    expect(diagnostics('UNWIND $ids AS id MATCH (n:Item {id: id} RETURN n', ['ids'])).toContainEqual(
      "Invalid input 'RETURN': expected ')' or 'WHERE'",
    );
  });

  it('flags a semantic error: a variable that is not bound', () => {
    expect(diagnostics('UNWIND $ids AS id MATCH (n:Item {id: ident}) RETURN n', ['ids'])).toEqual([
      expect.stringContaining('Variable `ident` not defined'),
    ]);
  });

  it('flags a misspelt label or relationship type', () => {
    const messages = diagnostics('MATCH (n:Itme)-[:chldOf]->(m:Item) RETURN n, m', []);
    expect(messages).toEqual([
      expect.stringContaining('Label Itme is not present in the database'),
      expect.stringContaining('Relationship type chldOf is not present in the database'),
    ]);
  });
});

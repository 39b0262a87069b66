// The Neo4j run (npm run test:neo4j, through scripts/test-neo4j.ts): the store contract suite and
// every HTTP end-to-end test, on the live server that script names in NEO4J_TEST_URL.
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/test'],
  testRegex: ['/test/[^/]+\\.e2e-spec\\.ts$', '/test/graph/neo4j[^/]*\\.contract-spec\\.ts$'],
};

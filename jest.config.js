// Unit tests live beside the code (src/<module>/<name>.spec.ts, bench/support/<name>.spec.ts, scripts/);
// HTTP, end-to-end and store contract tests in test/.
const swcTypeScript = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
  },
];
// Nest 12 and a few of its dependencies ship as ES modules only. Jest loads test files through its
// own module system, which can require an ES module only on Node 24.9 or later started with
// --experimental-vm-modules, and not on Node 22; so they are transpiled to CommonJS like our own code
// (archiver 8 and its ES-module dependencies too, for the ZIP exports).
const swcEsm = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/bench', '<rootDir>/scripts'],
  testRegex: '\\.(spec|e2e-spec|contract-spec)\\.ts$',
  transform: { '^.+\\.ts$': swcTypeScript, '^.+\\.m?js$': swcEsm },
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|uid|load-esm|file-type|iterare|content-disposition|archiver|zip-stream|compress-commons|crc32-stream|is-stream)/)',
  ],
  testTimeout: 60000,
  // Jest's default on two cores, one worker, runs the files one after another in its own process,
  // and a core idles while a test waits on a service, a browser or a worker thread it started; two
  // workers keep both busy. (The Neo4j run stays one file at a time: scripts/test-neo4j.ts.)
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};

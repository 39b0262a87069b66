/**
 * Compiles the TypeScript sources a benchmark loads with SWC, as Jest does (jest.config.js), so
 * that the figures are the service's and not the TypeScript compiler's, which ts-node runs even
 * with `transpile-only` and which would load in every process and worker thread. Loaded with
 * `node -r`; worker threads started by `startModuleWorker` load it too (`TYPESCRIPT_HOOK`).
 */
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  // No source maps: inlined, they would be held in the heap with every module's source, which
  // production's compiled JavaScript does not do.
  module: { type: 'commonjs' },
};

Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...OPTIONS, filename });
  module._compile(code, filename);
};
process.env.TYPESCRIPT_HOOK = __filename;

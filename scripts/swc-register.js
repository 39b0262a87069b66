/**
 * Compiles the TypeScript sources a process loads with SWC, with the options Jest uses
 * (jest.config.js), for everything that runs the sources without Jest: the services and command
 * lines the end-to-end tests and Schemathesis start, the benchmarks, and the worker threads of each
 * (`startModuleWorker` loads this hook into them; `TYPESCRIPT_HOOK` names it). ts-node, even with
 * `transpile-only`, loads the TypeScript compiler into every process and worker thread and compiles
 * each file with it: slow to start, heavy in memory, and counted in the benchmarks' figures.
 * Loaded with `node -r ./scripts/swc-register.js <file.ts>`.
 */
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    // Nest's dependency injection reads the constructor parameter types from decorator metadata.
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

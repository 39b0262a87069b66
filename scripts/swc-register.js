/**
 * Compiles the TypeScript sources a process loads with SWC, with the options Jest uses
 * (jest.config.js), for everything that runs the sources without Jest: the services and command
 * lines the end-to-end tests and Schemathesis start, the benchmarks, and the worker threads of each
 * (`startModuleWorker` loads this hook into them; `TYPESCRIPT_HOOK` names it). ts-node, even with
 * `transpile-only`, loads the TypeScript compiler into every process and worker thread and compiles
 * each file with it: slow to start, heavy in memory, and counted in the benchmarks' figures.
 * Loaded with `node -r ./scripts/swc-register.js <file.ts>`.
 */
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

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

/**
 * What SWC made of each source, by a hash of the source, its path and these options: a process
 * whose sources are all there never loads SWC, whose native code would otherwise count in every
 * test service's and benchmark's memory, and starts without compiling anything.
 */
const CACHE = path.join(__dirname, '..', 'node_modules', '.cache', 'swc-register');
const OPTIONS_KEY = JSON.stringify(OPTIONS) + require('@swc/core/package.json').version;

function compiled(source, filename) {
  const key = createHash('sha256').update(OPTIONS_KEY).update(filename).update(source).digest('hex');
  const file = path.join(CACHE, `${key}.js`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    const { code } = require('@swc/core').transformSync(source, { ...OPTIONS, filename });
    // Written whole under another name first: processes starting side by side may read it.
    mkdirSync(CACHE, { recursive: true });
    const partial = `${file}.${process.pid}.${require('node:worker_threads').threadId}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
    return code;
  }
}

Module._extensions['.ts'] = (module, filename) => {
  module._compile(compiled(readFileSync(filename, 'utf8'), filename), filename);
};
process.env.TYPESCRIPT_HOOK = __filename;

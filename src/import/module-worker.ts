import path from 'node:path';
import { ResourceLimits, Worker } from 'node:worker_threads';

/** Loads the worker's module in the worker; a CommonJS script, as `eval` workers are. */
const BOOTSTRAP = `
  const { workerData } = require('node:worker_threads');
  if (workerData.register !== undefined) require(workerData.register);
  require(workerData.entry);
`;

/** What a worker started by `startModuleWorker` finds in its `workerData`, besides `input`. */
export interface ModuleWorkerData<I> {
  /** The worker's module: a `.js` file, or `.ts` in tests and development. */
  entry: string;
  /** A module to load first: the hook that compiles TypeScript, when the entry is TypeScript. */
  register?: string;
  input: I;
}

/**
 * The project's SWC hook (`scripts/swc-register.js`), for workers whose entry is TypeScript: it
 * compiles as Jest does, without loading the TypeScript compiler into each worker as ts-node would.
 */
const SWC_HOOK = path.join(__dirname, '..', '..', 'scripts', 'swc-register.js');

/**
 * The young generation of a module worker, in MB (V8's `maxYoungGenerationSizeMb`). An import's
 * threads allocate short-lived objects by the million; on a machine with memory to spare V8 lets a
 * thread's young generation grow far past what they need, and an import then holds that growth in
 * each of its threads at once. The benchmark gives an import run on its main thread the same
 * (bench/ead-import.ts).
 */
export const WORKER_YOUNG_GENERATION_MB = 24;

/**
 * A worker thread running the module `entry` (an absolute path, as `require.resolve` gives it)
 * with `input` in its `workerData`. Tests and development run the TypeScript sources, so there the
 * worker compiles what it loads: with the hook this process compiles with when it names one in
 * `TYPESCRIPT_HOOK` (the SWC hook sets it), else with the SWC hook (a process under Jest or ts-node).
 */
export function startModuleWorker<I>(
  entry: string,
  input: I,
  options: { resourceLimits?: ResourceLimits } = {},
): Worker {
  const register = entry.endsWith('.ts') ? (process.env.TYPESCRIPT_HOOK ?? SWC_HOOK) : undefined;
  const workerData: ModuleWorkerData<I> = { entry, register, input };
  const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, ...options.resourceLimits };
  return new Worker(BOOTSTRAP, { eval: true, workerData, resourceLimits });
}

import path from 'node:path';

/** The project's folder, which benchmarks run from. */
export const ROOT = path.resolve(__dirname, '..', '..');
/** Where benchmarks keep what they generate (ignored by git). */
export const OUT = path.join(ROOT, 'bench', 'out');

import { setFlagsFromString } from 'node:v8';

/**
 * How far past its live size V8 lets the heap grow before a full collection, while an import
 * runs. By default V8 picks a factor of up to 4, and an import's main thread, which promotes a
 * steady trickle of short-lived batches into the old generation, grew its heap to four times the
 * ~30 MB it keeps alive: peak memory rose with the size of the finding aid (349 MB at 300,000
 * units). Half its live size bounds it (274 MB) at no measurable cost in time.
 */
const IMPORT_HEAP_GROWTH_PERCENT = 50;

let running = 0;

/**
 * Limits heap growth (a process-wide V8 setting, which V8 reads whenever it sizes the heap) until
 * every import that asked for it has released it (once each); then V8 chooses again, as suits
 * the portal.
 */
export function limitHeapGrowth(): () => void {
  if (running++ === 0) setFlagsFromString(`--heap-growing-percent=${IMPORT_HEAP_GROWTH_PERCENT}`);
  return () => {
    if (--running === 0) setFlagsFromString('--heap-growing-percent=0');
  };
}

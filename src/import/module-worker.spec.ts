import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startModuleWorker } from './module-worker';

/**
 * A TypeScript entry is compiled in the worker by the hook `TYPESCRIPT_HOOK` names (the benchmarks'
 * SWC hook), else by ts-node. The entry says who compiled it: ts-node runs its text, the test's
 * hook runs a text of its own.
 */
describe('startModuleWorker', () => {
  let folder: string;
  let entry: string;
  const hookBefore = process.env.TYPESCRIPT_HOOK;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'module-worker-'));
    entry = path.join(folder, 'entry.ts');
    await writeFile(entry, `require('node:worker_threads').parentPort.postMessage('as written');\n`);
  });

  afterEach(async () => {
    if (hookBefore === undefined) delete process.env.TYPESCRIPT_HOOK;
    else process.env.TYPESCRIPT_HOOK = hookBefore;
    await rm(folder, { recursive: true, force: true });
  });

  const firstMessage = async () => {
    const worker = startModuleWorker(entry, {});
    try {
      const [message] = (await once(worker, 'message')) as [unknown];
      return message;
    } finally {
      await worker.terminate();
    }
  };

  it('compiles a TypeScript entry with ts-node by default', async () => {
    delete process.env.TYPESCRIPT_HOOK;
    expect(await firstMessage()).toBe('as written');
  });

  it('compiles it with the hook TYPESCRIPT_HOOK names', async () => {
    const hook = path.join(folder, 'hook.js');
    await writeFile(
      hook,
      `require('node:module')._extensions['.ts'] = (module, filename) =>
        module._compile("require('node:worker_threads').parentPort.postMessage('by the hook')", filename);\n`,
    );
    process.env.TYPESCRIPT_HOOK = hook;
    expect(await firstMessage()).toBe('by the hook');
  });
});

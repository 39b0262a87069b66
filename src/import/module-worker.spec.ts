import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startModuleWorker, WORKER_YOUNG_GENERATION_MB } from './module-worker';

/**
 * A TypeScript entry is compiled in the worker by the hook `TYPESCRIPT_HOOK` names, else by the
 * project's SWC hook. The entry says who compiled it: the SWC hook compiles its text (TypeScript,
 * which sends the hook the worker names, as that hook sets it), the test's hook runs a text of its
 * own.
 */
describe('startModuleWorker', () => {
  let folder: string;
  let entry: string;
  const hookBefore = process.env.TYPESCRIPT_HOOK;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'module-worker-'));
    entry = path.join(folder, 'entry.ts');
    await writeFile(
      entry,
      `const hook: string | undefined = process.env.TYPESCRIPT_HOOK;
      require('node:worker_threads').parentPort.postMessage(hook ?? 'no hook');\n`,
    );
  });

  afterEach(async () => {
    if (hookBefore === undefined) delete process.env.TYPESCRIPT_HOOK;
    else process.env.TYPESCRIPT_HOOK = hookBefore;
    await rm(folder, { recursive: true, force: true });
  });

  const firstMessage = async (options?: Parameters<typeof startModuleWorker>[2]) => {
    const worker = startModuleWorker(entry, {}, options);
    try {
      const [message] = (await once(worker, 'message')) as [unknown];
      return message;
    } finally {
      await worker.terminate();
    }
  };

  it("compiles a TypeScript entry with the project's SWC hook by default", async () => {
    delete process.env.TYPESCRIPT_HOOK;
    expect(await firstMessage()).toBe(path.resolve(__dirname, '..', '..', 'scripts', 'swc-register.js'));
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

  it('bounds its young generation, and takes the limits it is given besides', async () => {
    await writeFile(
      entry,
      "const { parentPort, resourceLimits } = require('node:worker_threads');\nparentPort.postMessage(resourceLimits);\n",
    );
    expect(await firstMessage()).toMatchObject({ maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB });
    expect(await firstMessage({ resourceLimits: { maxOldGenerationSizeMb: 300 } })).toMatchObject({
      maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
      maxOldGenerationSizeMb: 300,
    });
  });
});

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Runs `file` under the hook in a process of its own; it prints what it found. */
const run = (file: string) =>
  JSON.parse(
    execFileSync(process.execPath, ['-r', path.join(__dirname, 'swc-register.js'), file], {
      encoding: 'utf8',
    }),
  ) as { answer: number; nonce: string; swcLoaded: boolean };

describe('swc-register', () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'swc-register-'));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const source = (nonce: string) => `const answer: number = 41 + 1;
    const swcLoaded = Object.keys(require.cache).some((loaded) => loaded.endsWith('.node') && loaded.includes('swc'));
    console.log(JSON.stringify({ answer, nonce: '${nonce}', swcLoaded }));\n`;

  it('compiles a source once, and runs it again without loading SWC, until the source changes', async () => {
    const file = path.join(folder, 'entry.ts');
    const first = randomUUID();
    await writeFile(file, source(first));
    expect(run(file)).toEqual({ answer: 42, nonce: first, swcLoaded: true });
    expect(run(file)).toEqual({ answer: 42, nonce: first, swcLoaded: false });
    const second = randomUUID();
    await writeFile(file, source(second));
    expect(run(file)).toEqual({ answer: 42, nonce: second, swcLoaded: true });
  });
});

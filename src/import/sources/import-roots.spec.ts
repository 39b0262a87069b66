import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ImportRoots } from './import-roots';

describe('ImportRoots', () => {
  let base: string;
  let first: string;
  let second: string;
  let outside: string;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'roots-'));
    [first, second, outside] = ['first', 'second', 'outside'].map((name) => path.join(base, name));
    await Promise.all(
      [first, second, outside].map((folder) => mkdir(path.join(folder, 'sub'), { recursive: true })),
    );
    await writeFile(path.join(first, 'a.xml'), 'a');
    await writeFile(path.join(second, 'sub', 'b.xml'), 'b');
    await writeFile(path.join(outside, 'secret.xml'), 's');
    await symlink(path.join(outside, 'secret.xml'), path.join(first, 'escape.xml'));
    await symlink(path.join(first, 'a.xml'), path.join(second, 'inner-link.xml'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const roots = () => new ImportRoots([first, second]);

  it('resolves absolute paths and paths relative to any root', async () => {
    expect(await roots().resolveFile(path.join(first, 'a.xml'))).toBe(path.join(first, 'a.xml'));
    expect(await roots().resolveFile('a.xml')).toBe(path.join(first, 'a.xml'));
    expect(await roots().resolveFile('sub/b.xml')).toBe(path.join(second, 'sub', 'b.xml'));
  });

  it('follows links that stay inside a root', async () => {
    expect(await roots().resolveFile('inner-link.xml')).toBe(path.join(first, 'a.xml'));
  });

  it.each([
    ['an absolute path outside', () => path.join(outside, 'secret.xml')],
    ['a relative path climbing out', () => '../outside/secret.xml'],
    ['a link leading out', () => 'escape.xml'],
    ['a folder', () => 'sub'],
    ['a missing file', () => 'missing.xml'],
    ['an empty name', () => ''],
    ['a NUL byte', () => 'a.xml\0'],
  ])('refuses %s', async (_, name) => {
    expect(await roots().resolveFile(name())).toBeUndefined();
  });

  it('refuses everything without roots', async () => {
    const none = new ImportRoots([]);
    expect(none.configured).toBe(false);
    expect(await none.resolveFile(path.join(first, 'a.xml'))).toBeUndefined();
  });
});

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ImportRoots } from './import-roots';
import { WORKSPACE_PREFIX } from './workspace';

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

  describe("the service's own files", () => {
    let data: string;
    let temp: string;
    let workspace: string;
    const own = () => new ImportRoots([base], { data, temp });
    const refusal = async (name: string) =>
      own()
        .resolveFile(name, 'Parameter "log"')
        .then(
          () => undefined,
          (error: { getStatus(): number; message: string }) => [error.getStatus(), error.message],
        );

    beforeAll(async () => {
      data = path.join(base, 'data');
      temp = path.join(base, 'tmp');
      workspace = path.join(temp, `${WORKSPACE_PREFIX}123-abc`);
      await mkdir(workspace, { recursive: true });
      await mkdir(data, { recursive: true });
      for (const name of ['archive.db', 'archive.db-wal', 'archive.db-shm', 'archive.tokens.db']) {
        await writeFile(path.join(data, name), 'x');
      }
      await writeFile(path.join(workspace, 'body'), 'spooled');
      await writeFile(path.join(temp, 'other.xml'), "not the service's");
      await symlink(path.join(data, 'archive.db'), path.join(first, 'store-link.db'));
    });

    it.each([
      ['the store', () => path.join(data, 'archive.db'), 'data folder'],
      ['its WAL', () => 'data/archive.db-wal', 'data folder'],
      ['its shared memory', () => 'data/archive.db-shm', 'data folder'],
      ['the tokens', () => 'data/archive.tokens.db', 'data folder'],
      ['a missing file in the data folder', () => 'data/gone.db', 'data folder'],
      ['a link to the store', () => 'first/store-link.db', 'data folder'],
      ['a spooled body', () => path.join(workspace, 'body'), 'workspace'],
    ])('refuses %s with a 400 naming the parameter and why, whatever the roots say', async (_, name, why) => {
      const [status, message] = (await refusal(name())) ?? [];
      expect(status).toBe(400);
      expect(message).toMatch(/^Parameter "log" names a file the service never reads: /);
      expect(message).toContain(why);
    });

    it("reads other files of the temp folder, which are not the service's", async () => {
      expect(await own().resolveFile('tmp/other.xml')).toBe(path.join(temp, 'other.xml'));
    });

    it('tells which roots overlap its folders', () => {
      expect(own().overlaps()).toEqual([
        `${base} overlaps the data folder ${data}`,
        `${base} overlaps the temp folder ${temp}`,
      ]);
      expect(new ImportRoots([first], { data, temp }).overlaps()).toEqual([]);
      expect(new ImportRoots([workspace], { data, temp }).overlaps()).toEqual([
        `${workspace} overlaps the temp folder ${temp}`,
      ]);
    });
  });
});

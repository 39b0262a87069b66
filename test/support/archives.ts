import { execFile } from 'node:child_process';

export type ArchiveFormat = 'zip' | 'tar' | 'tar.gz';

/** Entry name → content. */
export type ArchiveEntries = Record<string, string | Buffer>;

/**
 * archiver 8 is an ES module, which Jest's CommonJS runtime cannot load, so archives are built by
 * a child Node process; entries travel base64-encoded through its standard input.
 */
const BUILD_SCRIPT = `
import { TarArchive, ZipArchive } from 'archiver';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { format, entries } = JSON.parse(input);
const archive = format === 'zip' ? new ZipArchive({}) : new TarArchive({ gzip: format === 'tar.gz' });
archive.on('error', (error) => { console.error(error); process.exit(1); });
archive.pipe(process.stdout);
for (const [name, base64] of entries) archive.append(Buffer.from(base64, 'base64'), { name });
await archive.finalize();
`;

export function buildArchive(format: ArchiveFormat, entries: ArchiveEntries): Promise<Buffer> {
  const payload = JSON.stringify({
    format,
    entries: Object.entries(entries).map(([name, content]) => [
      name,
      Buffer.from(content).toString('base64'),
    ]),
  });
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '-e', BUILD_SCRIPT],
      { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, cwd: __dirname },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    child.stdin?.end(payload);
  });
}

/**
 * Renames entries inside a built zip. archiver normalises names (it turns `../evil.xml` into
 * `evil.xml`), so hostile names are written over same-length placeholders in the local and
 * central headers; zip names carry no checksum.
 */
export function renameZipEntries(zip: Buffer, renames: Record<string, string>): Buffer {
  let patched = Buffer.from(zip);
  for (const [from, to] of Object.entries(renames)) {
    const source = Buffer.from(from);
    const target = Buffer.from(to);
    if (source.length !== target.length) throw new Error(`"${from}" and "${to}" differ in length`);
    const parts: Buffer[] = [];
    let start = 0;
    for (let at = patched.indexOf(source); at !== -1; at = patched.indexOf(source, start)) {
      parts.push(patched.subarray(start, at), target);
      start = at + source.length;
    }
    parts.push(patched.subarray(start));
    patched = Buffer.concat(parts);
  }
  return patched;
}

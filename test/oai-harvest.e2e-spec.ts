import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeEad } from '../bench/ead-generator';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { addRepository, findingAid, importInto, unit } from './support/oai-fixtures';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..');
const GENERATED_UNITS = 20_000;

interface Harvested {
  entries: { id: string; deleted: boolean; sets: string[]; title: string | null }[];
  error: string | null;
}

/**
 * The provider harvested by a real harvester of the ecosystem, Sickle (Python, from PyPI, in a
 * virtualenv of its own: scripts/oai-harvester.sh), as an aggregator harvests it: a repository of
 * 20,000 generated units and a small fonds in full, then incrementally, from a time on, after a
 * sync changed one unit and deleted another.
 */
describe('harvesting /oai with Sickle', () => {
  let python: string;
  let t: ImportTestApp;
  let folder: string;
  let url: string;
  let portal: string;

  const harvest = async (args: Record<string, unknown>): Promise<Harvested> => {
    const { stdout } = await run(
      python,
      [path.join(ROOT, 'scripts', 'oai-harvest.py'), JSON.stringify({ url, token: portal, ...args })],
      { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
    );
    return JSON.parse(stdout) as Harvested;
  };

  beforeAll(async () => {
    try {
      python = (
        await run('bash', [path.join(ROOT, 'scripts', 'oai-harvester.sh')], { timeout: 300_000 })
      ).stdout.trim();
    } catch (error) {
      const { stderr, message } = error as { stderr?: string; message: string };
      throw new Error(
        'The OAI-PMH harvester (Sickle) could not be installed into its virtualenv by scripts/oai-harvester.sh: ' +
          'it needs python3 with venv (Debian: python3-venv) and PyPI.\n' +
          (stderr || message),
        { cause: error },
      );
    }
    t = await createImportTestApp();
    portal = await t.token('portal');
    folder = await mkdtemp(path.join(tmpdir(), 'oai-harvest-'));
    const file = path.join(folder, 'generated.xml');
    await writeEad(file, { units: GENERATED_UNITS, fanOut: 10, depth: 5, unitSize: 'lean' });
    const repository = await addRepository(t, 'nl', 'r1');
    await importInto(t, 'ead', repository, await readFile(file));
    await importInto(t, 'ead', repository, findingAid(unit('S', unit('P'), unit('Q'))));
    t.server.listen(0, '127.0.0.1');
    await once(t.server, 'listening');
    url = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}/oai`;
  }, 600_000);

  afterAll(async () => {
    await t?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it('harvests every unit of the repository, then what changed from a time on', async () => {
    const units = (await t.store.read((tx) => tx.subtree('nl-r1')))
      .filter((entry) => entry.type === 'DocumentaryUnit')
      .map((entry) => entry.id);
    expect(units).toHaveLength(GENERATED_UNITS + 3);

    const full = await harvest({
      verb: 'ListRecords',
      params: { metadataPrefix: 'oai_dc', set: 'nl:nl-r1' },
    });
    expect(full.error).toBeNull();
    expect(full.entries).toHaveLength(units.length);
    expect(full.entries.map((entry) => entry.id).sort()).toEqual([...units].sort());
    expect(full.entries.filter((entry) => entry.deleted || entry.title === null)).toEqual([]);
    expect(full.entries[0].sets).toEqual(['nl', 'nl:nl-r1']);

    const findingAids = await harvest({ verb: 'ListIdentifiers', params: { metadataPrefix: 'ead' } });
    expect(findingAids.entries.map((entry) => entry.id).sort()).toEqual(['nl-r1-bench', 'nl-r1-s']);

    // A whole second after everything harvested so far: the change lies after it, all else before.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    const from = `${new Date().toISOString().slice(0, 19)}Z`;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const synced = await importInto(
      t,
      'ead-sync',
      'nl-r1',
      findingAid({ localId: 'S', children: [{ localId: 'P', title: 'Renamed P' }] }),
      { fonds: 'nl-r1-s', 'allow-update': 'true' },
    );
    expect(synced.deleted).toEqual(['nl-r1-s-q']);

    // By POST, as Sickle sends forms.
    const changed = await harvest({
      method: 'POST',
      verb: 'ListRecords',
      params: { metadataPrefix: 'oai_dc', from },
    });
    expect(changed).toEqual({
      entries: [
        { id: 'nl-r1-s-p', deleted: false, sets: ['nl', 'nl:nl-r1'], title: 'Renamed P' },
        { id: 'nl-r1-s-q', deleted: true, sets: ['nl', 'nl:nl-r1'], title: null },
      ],
      error: null,
    });
    const none = await harvest({
      verb: 'ListIdentifiers',
      params: { metadataPrefix: 'oai_dc', from: '2999-01-01' },
    });
    expect(none).toEqual({ entries: [], error: 'NoRecordsMatch' });
  }, 600_000);
});

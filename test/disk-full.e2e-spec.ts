import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { FROM_SOURCE, getOnce, ServiceProcess, spawnService, untilHealthy } from './support/service-process';
import { createTestApp } from './support/test-app';

const PRLIMIT = '/usr/bin/prlimit';
const MiB = 1024 * 1024;

/**
 * A disk that fills while a body is spooled, for real: the service runs as a process of its own,
 * and once it is up its file size limit (RLIMIT_FSIZE, `ulimit -f`) is lowered with util-linux's
 * `prlimit`, so that its writes past the limit fail with EFBIG as a full disk fails them with
 * ENOSPC. Skipped, saying why, where `prlimit` is missing.
 */
const describeWithPrlimit = existsSync(PRLIMIT) ? describe : describe.skip;
if (!existsSync(PRLIMIT)) {
  console.warn(`disk-full e2e skipped: ${PRLIMIT} (util-linux) is not installed`);
}

describeWithPrlimit('A disk that fills while an import is spooled', () => {
  let folder: string;
  let tempDir: string;
  let service: ServiceProcess;
  let token: string;
  let user: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'disk-full-'));
    tempDir = path.join(folder, 'tmp');
    const graphUrl = `sqlite:${path.join(folder, 'archive.db')}`;
    // The store, its user and token, made before the service starts on it.
    const setup = await createTestApp({ env: { GRAPH_URL: graphUrl } });
    user = await setup.user();
    token = await setup.token('import');
    await setup.store.write((tx) =>
      tx.putItems([
        {
          bundle: { id: 'nl-r1', type: 'Repository', data: { identifier: 'r1' }, relations: {} },
          edges: { hasCountry: ['nl'] },
          hash: 'r1',
        },
      ]),
    );
    await setup.close();
    await mkdir(tempDir);
    service = await spawnService([...FROM_SOURCE, 'src/main.ts'], {
      GRAPH_URL: graphUrl,
      IMPORT_TEMP_DIR: tempDir,
      LOG_LEVEL: 'info',
    });
    await untilHealthy(service);
    // Room for the store to grow a little, not for a body of 8 MiB.
    const storeBytes = statSync(path.join(folder, 'archive.db')).size;
    const limit = storeBytes + 4 * MiB;
    execFileSync(PRLIMIT, ['--pid', String(service.process.pid), `--fsize=${limit}:${limit}`]);
  });
  afterAll(async () => {
    await service?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  const base = () => `http://127.0.0.1:${service.port}`;
  const importEad = (body: Buffer | string) =>
    request(base())
      .post('/import/ead')
      .query({ scope: 'nl-r1', commit: 'true', tag: 'big.xml' })
      .set('Authorization', `Bearer ${token}`)
      .set('X-User', user)
      .set('Content-Type', 'application/xml')
      .send(body);

  it('answers 507 naming the temporary folder, never a 400, and imports nothing', async () => {
    const unit = '<c><did><unitid>u</unitid><unittitle>A unit</unittitle></did></c>\n';
    const body = Buffer.from(
      `<ead><archdesc><did><unitid>big</unitid></did><dsc>${unit.repeat((8 * MiB) / unit.length)}</dsc></archdesc></ead>`,
    );
    const answer = await importEad(body);
    expect(answer.status).toBe(507);
    expect(answer.body).toEqual({
      requestId: expect.any(String),
      status: 507,
      error: 'Insufficient Storage',
      details: {
        message: 'No room to write in the temporary folder (IMPORT_TEMP_DIR): nothing was imported',
        folders: ['temporary folder'],
      },
    });
    expect(await readdir(tempDir)).toEqual([]);
    const logs = service.logs().filter((line) => line.includes('could not write: No room'));
    expect(logs.length).toBe(1);
  });

  it('keeps serving and importing what fits, the store readable', async () => {
    expect((await getOnce(service.port, '/health')).status).toBe(200);
    const small = await importEad('<ead><archdesc><did><unitid>small</unitid></did></archdesc></ead>');
    expect(small.status).toBe(201);
    expect(small.body.created_keys).toEqual({ 'big.xml': ['nl-r1-small'] });
  });
});

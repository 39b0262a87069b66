import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { addReferenceRepository } from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { untilImportsLeftNothing } from './support/open-handles';
import { until } from './support/polling';
import { rawExchange } from './support/raw-http';

describe('Every import ends, whatever happens to its request', () => {
  let t: ImportTestApp;
  let tempDir: string;
  let port: number;

  beforeAll(async () => {
    tempDir = await mkdtemp(path.join(tmpdir(), 'faults-temp-'));
    t = await createImportTestApp({ IMPORT_TEMP_DIR: tempDir });
    await addReferenceRepository(t);
    t.server.listen(0, '127.0.0.1');
    await once(t.server, 'listening');
    port = (t.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await rm(tempDir, { recursive: true, force: true });
  });

  /** Raw request head of an import as the test user. */
  function head(extra: string[]): string {
    return [
      'POST /import/ead?scope=r1&commit=true HTTP/1.1',
      'Host: localhost',
      `Authorization: Bearer ${t.importToken}`,
      `X-User: ${t.userId}`,
      'Content-Type: text/xml',
      ...extra,
      '',
      '',
    ].join('\r\n');
  }

  /** Nothing left by the imports, and the service up. */
  async function expectNothingLeft(): Promise<void> {
    await untilImportsLeftNothing(tempDir, port);
    await request(t.server).get('/health').expect(200);
  }

  it('answers broken chunked framing in the import error shape, and leaves no file or handle', async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const answer = await rawExchange(
        port,
        head(['Transfer-Encoding: chunked']) + '5\r\n<ead>\r\nzz\r\nbroken\r\n',
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        status: 400,
        error: 'Bad Request',
        details: expect.stringContaining('The request is not valid HTTP'),
      });
    }
    await expectNothingLeft();
  });

  it('ends an import whose client leaves halfway through its body', async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(head(['Content-Length: 1000000']) + '<ead>' + 'x'.repeat(100_000));
      // Some leave at once, before the import reads its body; others once it has begun.
      if (attempt % 2 === 1) await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      await once(socket, 'close');
    }
    await expectNothingLeft();
  });

  it('records a committed import whose client left as failed', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(head(['Content-Length: 1000000']) + '<ead>');
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    const opsToken = await t.token('ops');
    const logs = await until(
      'failed import logs',
      async () =>
        (
          await request(t.server)
            .get('/import/logs')
            .query({ outcome: 'failed', endpoint: 'ead' })
            .set('Authorization', `Bearer ${opsToken}`)
        ).body as { items?: { error?: { details?: unknown } }[] },
      (body) => (body.items?.length ?? 0) > 0,
    );
    expect(JSON.stringify(logs.items?.[0].error)).toContain('could not be read whole');
  });
});

describe('Start-up clean-up of the leftovers of runs that died', () => {
  it('removes its own workspaces of processes gone, and nothing else', async () => {
    const tempDir = await mkdtemp(path.join(tmpdir(), 'leftovers-temp-'));
    const child = spawn(process.execPath, ['-e', '0']);
    await once(child, 'exit');
    const gone = child.pid!;
    const names = {
      deadWorkspace: `import-${gone}-AbC123`,
      liveWorkspace: `import-${process.ppid}-AbC123`,
      foreign: 'import-notours',
      other: 'something-else',
    };
    for (const name of Object.values(names)) await mkdir(path.join(tempDir, name));
    const t = await createImportTestApp({ IMPORT_TEMP_DIR: tempDir });
    try {
      expect((await readdir(tempDir)).sort()).toEqual(
        [names.liveWorkspace, names.foreign, names.other].sort(),
      );
    } finally {
      await t.close();
      await rm(tempDir, { recursive: true, force: true });
    }
  });
});

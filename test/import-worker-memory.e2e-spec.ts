import request from 'supertest';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { eadOf } from './support/job-events';

/** One unit whose scope and content is `bytes` of text: what a reader must hold at once. */
function eadWithTextOf(bytes: number): Buffer {
  return Buffer.concat([
    Buffer.from(
      '<ead><eadheader><eadid>big</eadid></eadheader><archdesc level="fonds"><did><unitid>big</unitid>',
    ),
    Buffer.from('<unittitle>Big</unittitle></did><scopecontent><p>'),
    Buffer.alloc(bytes, 'word '),
    Buffer.from('</p></scopecontent></archdesc></ead>'),
  ]);
}

/**
 * An import that needs more memory than the import worker may use fails alone: rolled back, its
 * log stored as failed, and the service goes on serving and importing with a fresh worker.
 */
describe('an import past the import worker’s heap limit', () => {
  let t: ImportTestApp;
  let ops: string;

  beforeAll(async () => {
    t = await createImportTestApp({
      IMPORT_RUNNER: 'thread',
      IMPORT_WORKER_MAX_HEAP_MB: '128',
      // Read in the import worker itself, whose heap is limited, rather than in a reading worker.
      IMPORT_WORKER_MIN_BYTES: String(1024 * 1024 * 1024),
    });
    ops = await t.token('ops');
  });
  afterAll(() => t.close());

  it('answers 413 naming the limit, stores a failed log, writes nothing, and the next import runs', async () => {
    const failed = await t
      .post('ead', { scope: 'r1', commit: 'true', tag: 'big.xml' })
      .set('Content-Type', 'application/xml')
      .send(eadWithTextOf(400 * 1024 * 1024));
    expect(failed.status).toBe(413);
    expect(failed.body.details).toMatch(/IMPORT_WORKER_MAX_HEAP_MB/);
    expect((await t.items(['r1-big'])).size).toBe(0);
    const logs = await request(t.server)
      .get('/import/logs')
      .query({ outcome: 'failed' })
      .set('Authorization', `Bearer ${ops}`)
      .expect(200);
    expect(logs.body.items[0]).toMatchObject({ outcome: 'failed', error: { status: 413 } });

    await request(t.server).get('/health').expect(200);
    const next = await t
      .post('ead', { scope: 'r1', commit: 'true', tag: 'small.xml' })
      .set('Content-Type', 'application/xml')
      .send(eadOf('small', 5))
      .expect(201);
    expect(next.body).toMatchObject({ created: 6 });
  }, 180_000);
});

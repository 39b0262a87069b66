import { tmpdir } from 'node:os';
import request from 'supertest';
import { ShutdownService } from '../src/shutdown/shutdown.service';
import { TestApp, createTestApp } from './support/test-app';

describe('GET /health', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 200 without a token while the store answers', async () => {
    const response = await request(testApp.server).get('/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', details: { graph: { status: 'up' } } });
  });

  it('answers 503 once the store is closed', async () => {
    await testApp.store.close();
    const response = await request(testApp.server).get('/health');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ status: 'error', details: { graph: { status: 'down' } } });
  });
});

describe('GET /health/live and /health/ready', () => {
  let testApp: TestApp;

  afterEach(async () => {
    await testApp.close();
  });

  it('are both 200 without a token on a service that can serve, readiness naming its checks', async () => {
    testApp = await createTestApp();
    const live = await request(testApp.server).get('/health/live').expect(200);
    expect(live.body).toMatchObject({ status: 'ok' });
    const ready = await request(testApp.server).get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({
      status: 'ok',
      details: { graph: { status: 'up' }, disk: { status: 'up' }, shutdown: { status: 'up' } },
    });
    expect(Object.values(ready.body.details.disk.freeBytes as Record<string, number>)[0]).toBeGreaterThan(0);
  });

  it('readiness is 503 while the store does not answer; liveness stays 200', async () => {
    testApp = await createTestApp();
    await testApp.store.close();
    const ready = await request(testApp.server).get('/health/ready').expect(503);
    expect(ready.body).toMatchObject({ status: 'error', error: { graph: { status: 'down' } } });
    await request(testApp.server).get('/health/live').expect(200);
  });

  it('readiness is 503 when free disk space is under MIN_FREE_DISK_BYTES, saying where', async () => {
    // More than any disk holds.
    testApp = await createTestApp({ env: { MIN_FREE_DISK_BYTES: String(2 ** 52) } });
    const ready = await request(testApp.server).get('/health/ready').expect(503);
    expect(ready.body.error.disk.status).toBe('down');
    expect(ready.body.error.disk.message).toContain(`Free disk space under MIN_FREE_DISK_BYTES`);
    // The import workspaces' folder, whatever the store.
    expect(ready.body.error.disk.message).toContain(`${tmpdir()} has `);
    await request(testApp.server).get('/health/live').expect(200);
  });

  it('readiness is 503 once shutting down has begun', async () => {
    testApp = await createTestApp();
    await testApp.app.get(ShutdownService).drain(0);
    const ready = await request(testApp.server).get('/health/ready').expect(503);
    expect(ready.body.error.shutdown).toMatchObject({
      status: 'down',
      message: 'The service is shutting down',
    });
  });
});

import request from 'supertest';
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

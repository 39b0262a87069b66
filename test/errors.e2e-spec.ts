import request from 'supertest';
import { TestApp, createTestApp } from './support/test-app';

/** Errors outside the portal API and the import interface, whose own formats their tests cover. */
describe('errors outside the interfaces (through the real app)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it("answers unknown paths in Nest's format, whatever their first segment is called", async () => {
    for (const path of ['/no-such-route', '/constructor/x', '/__proto__', '/apiary', '/imports']) {
      const response = await request(testApp.server).get(path);
      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  it("answers a path the router cannot decode in Nest's format, with a request id", async () => {
    const response = await request(testApp.server).get('/health/%ZZ');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringMatching(/not a valid URL/),
      requestId: response.headers['x-request-id'],
    });
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });
});

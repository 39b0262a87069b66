import { once } from 'node:events';
import { AddressInfo } from 'node:net';
import { rawExchange } from './support/raw-http';
import { createTestApp, TestApp } from './support/test-app';

/** What Node refuses before any route sees the request, answered in each interface's own shape. */
describe('HTTP refusals in the shape of the interface', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    t.server.listen(0, '127.0.0.1');
    await once(t.server, 'listening');
    port = (t.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const headTooLarge = (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'p'.repeat(40_000)}\r\n\r\n`;
  const malformedHead = (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\nNot a header line\r\n\r\n`;

  it('answers a head over the limit 431 with the import error body on /import', async () => {
    const answer = await rawExchange(port, headTooLarge('/import/ead'));
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({
      status: 431,
      error: 'Request Header Fields Too Large',
      details: expect.stringMatching(/^The request line and headers are larger than the limit of \d+ bytes$/),
    });
  });

  it('answers a head over the limit 431 with a JSON:API error document on /api', async () => {
    const answer = await rawExchange(port, headTooLarge(`/api/v1/${'x'.repeat(30_000)}`));
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toBe('application/vnd.api+json');
    expect(JSON.parse(answer.body)).toEqual({
      errors: [
        {
          status: '431',
          title: 'Request Header Fields Too Large',
          detail: expect.stringContaining('larger than the limit'),
        },
      ],
    });
  });

  it('answers broken chunked framing of an import body 400 in the import error body', async () => {
    const token = await t.token('import');
    const user = await t.user();
    const answer = await rawExchange(
      port,
      `POST /import/csv?importer=countries HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        `X-User: ${user}\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nnot-a-size\r\n`,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      status: 400,
      error: 'Bad Request',
      details: expect.stringContaining('The request is not valid HTTP'),
    });
  });

  it('answers a malformed head 400 in each shape', async () => {
    const onImport = await rawExchange(port, malformedHead('/import/logs'));
    expect(onImport.status).toBe(400);
    expect(JSON.parse(onImport.body)).toMatchObject({ status: 400, error: 'Bad Request' });
    const onApi = await rawExchange(port, malformedHead('/api/v1/search'));
    expect(onApi.status).toBe(400);
    expect(onApi.headers['content-type']).toBe('application/vnd.api+json');
    expect(JSON.parse(onApi.body)).toMatchObject({ errors: [{ status: '400', title: 'Bad Request' }] });
  });

  it("answers elsewhere in Nest's shape", async () => {
    const answer = await rawExchange(port, headTooLarge('/health'));
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({
      statusCode: 431,
      error: 'Request Header Fields Too Large',
    });
  });
});

import request from 'supertest';
import { IMPORT_FORMATS } from '../src/import/formats/formats.module';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/** The OpenAPI description of the import interface, its formats read from their declarations. */
describe('OpenAPI of the import interface', () => {
  let app: ImportTestApp;

  beforeAll(async () => {
    app = await createImportTestApp();
  });
  afterAll(() => app.close());

  it('documents the import and import-log endpoints in the OpenAPI document', async () => {
    const { body } = await request(app.server).get('/openapi.json');
    const importOperation = body.paths['/import/{format}'].post;
    const parameterNames = importOperation.parameters.map((parameter: { name: string }) => parameter.name);
    expect(parameterNames).toEqual(
      expect.arrayContaining([
        'format',
        'X-User',
        'commit',
        'tolerant',
        'allow-update',
        'scope',
        'lang',
        'tag',
        'missing-unitid',
        'duplicate-unitid',
      ]),
    );
    expect(Object.keys(importOperation.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '404', '413']),
    );
    // The formats and their own parameters are read from the registry's declarations.
    type Parameter = { name: string; in: string; description: string; schema: { enum?: string[] } };
    const parameters: Parameter[] = importOperation.parameters;
    const formatParameter = parameters.find((parameter) => parameter.in === 'path');
    expect(formatParameter?.schema.enum).toEqual(IMPORT_FORMATS.map((format) => format.name));
    for (const format of IMPORT_FORMATS) {
      expect(formatParameter?.description).toContain(`- ${format.name}: ${format.summary}`);
      for (const own of format.parameters) {
        const documented = parameters.find(
          (parameter) => parameter.in === 'query' && parameter.name === own.name,
        );
        expect(documented?.description).toMatch(new RegExp(`^[^:]*\\b${format.name}\\b[^:]*: `));
      }
    }
    expect(
      body.paths['/import/logs'].get.parameters.map((parameter: { name: string }) => parameter.name),
    ).toEqual(
      expect.arrayContaining(['user', 'scope', 'endpoint', 'outcome', 'from', 'to', 'page', 'limit']),
    );
    expect(body.paths['/import/logs/{id}'].get).toBeDefined();
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const SCHEMA_PATH = path.resolve(__dirname, '../../../shared/fixtures/jsonapi/schema.json');

/**
 * The official JSON:API 1.0 response schema (JSON Schema 2020-12). `strict: false` because the
 * upstream schema names properties in `required` inside `anyOf`/`not` without declaring them
 * there, which is valid JSON Schema that ajv's strict mode only warns about.
 */
const validate = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')));
})();

/** The schema's complaints about `document`, or `undefined` when it is a valid JSON:API response. */
function jsonApiViolations(document: unknown): string | undefined {
  return validate(document) ? undefined : JSON.stringify(validate.errors, null, 2);
}

/** Throws, listing the violations, unless `document` is a valid JSON:API response document. */
export function assertJsonApiDocument(document: unknown): void {
  const violations = jsonApiViolations(document);
  if (violations !== undefined) {
    throw new Error(`not a valid JSON:API document:\n${violations}\n${JSON.stringify(document, null, 2)}`);
  }
}

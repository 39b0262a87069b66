import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { FIXTURES } from './fixture-paths';

const SCHEMAS = path.join(FIXTURES, 'jsonapi');

function schema(file: string): object {
  return JSON.parse(readFileSync(path.join(SCHEMAS, file), 'utf8')) as object;
}

/**
 * The official JSON:API 1.0 response schema (JSON Schema 2020-12). `strict: false` because the
 * upstream schema names properties in `required` inside `anyOf`/`not` without declaring them
 * there, which is valid JSON Schema that ajv's strict mode only warns about.
 */
const official = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema('schema.json'));
})();

/** The reference portal's own schema (JSON Schema draft-04), from its test suite. */
const reference = (() => {
  const ajv = new AjvDraft04({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema('ehri-schema.json'));
})();

type Validator = typeof official;

function check(validate: Validator, name: string, document: unknown): void {
  if (!validate(document)) {
    throw new Error(
      `not a valid document by ${name}:\n${JSON.stringify(validate.errors, null, 2)}\n` +
        JSON.stringify(document, null, 2),
    );
  }
}

type Resource = { links?: Record<string, unknown>; relationships?: Record<string, unknown> };

/**
 * The document with the specification's two departures from the official schema undone, and
 * nothing else changed: (1) resource `links` hold `search` and one URL per relationship besides
 * `self`, which the official schema does not allow; (2) a relationship with no item is `null`,
 * where the official schema wants `{"data": null}`.
 */
function withoutSpecificationDepartures(document: unknown): unknown {
  const copy = structuredClone(document) as { data?: unknown; included?: unknown };
  const resources = [
    ...(Array.isArray(copy.data)
      ? copy.data
      : copy.data === undefined || copy.data === null
        ? []
        : [copy.data]),
    ...(Array.isArray(copy.included) ? copy.included : []),
  ] as Resource[];
  for (const resource of resources) {
    if (resource.links !== undefined) resource.links = { self: resource.links.self };
    for (const [name, relationship] of Object.entries(resource.relationships ?? {})) {
      if (relationship === null) resource.relationships![name] = { data: null };
    }
  }
  return copy;
}

/**
 * Throws, listing the violations, unless `document` is a portal answer as the specification has
 * it: valid by the reference's schema as it is, and by the official JSON:API schema apart from the
 * specification's two departures (`withoutSpecificationDepartures`).
 */
export function assertPortalDocument(document: unknown): void {
  check(reference, "the reference portal's schema (ehri-schema.json)", document);
  check(
    official,
    'the official JSON:API schema (schema.json), departures undone',
    withoutSpecificationDepartures(document),
  );
}

/** Throws, listing the violations, unless `document` is valid by the official JSON:API schema as it is. */
export function assertJsonApiDocument(document: unknown): void {
  check(official, 'the official JSON:API schema (schema.json)', document);
}

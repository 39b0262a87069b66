import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';

/** What is needed of an OpenAPI 3.0 document to find an operation's answers. */
export interface OpenApiDocument {
  components: { schemas: Record<string, { properties?: Record<string, object> }> };
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

/** A JSON pointer token (RFC 6901). */
function token(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Checks answers against the OpenAPI document the service serves: their status must be one the
 * operation lists, their media type one that status lists, and their body valid by its schema
 * (JSON Schema, with OpenAPI's `nullable` and `discriminator`). Schemas are compiled in ajv's
 * strict mode, so that a keyword ajv does not know, a misspelt one included, fails too.
 */
export class OpenApiAnswers {
  private readonly ajv = new Ajv({ allErrors: true, discriminator: true, strict: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    // OpenAPI's own members and annotations, which are no JSON Schema keywords.
    this.ajv.addVocabulary(['openapi', 'info', 'paths', 'components', 'tags', 'servers', 'example']);
    this.ajv.addSchema(document, 'openapi.json');
  }

  /** Throws, naming what differs, unless `answer` is one the document gives `method path`. */
  check(method: string, path: string, answer: request.Response): void {
    const where = `${method.toUpperCase()} ${path} → ${answer.status}`;
    const operation = this.document.paths[path]?.[method.toLowerCase()];
    if (operation === undefined) throw new Error(`${where}: no such operation in the document`);
    const status = String(answer.status);
    const documented = operation.responses[status] ?? operation.responses.default;
    if (documented === undefined) {
      throw new Error(`${where}: status not documented (${Object.keys(operation.responses).join(', ')})`);
    }
    const mediaType = String(answer.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    const content = documented.content ?? {};
    if (!(mediaType in content)) {
      throw new Error(
        `${where}: media type "${mediaType}" not documented (${Object.keys(content).join(', ')})`,
      );
    }
    const pointer = ['paths', path, method.toLowerCase(), 'responses', status, 'content', mediaType, 'schema']
      .map(token)
      .join('/');
    let validate = this.validators.get(pointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `openapi.json#/${pointer}` });
      this.validators.set(pointer, validate);
    }
    const body: unknown = mediaType.endsWith('json') ? answer.body : answer.text;
    if (!validate(body)) {
      throw new Error(
        `${where}: the body does not match its schema:\n${JSON.stringify(validate.errors, null, 2)}\n` +
          JSON.stringify(body, null, 2).slice(0, 4000),
      );
    }
  }
}

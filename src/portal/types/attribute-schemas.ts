import type { SchemaObject } from '@nestjs/swagger';

/** Building blocks of the types' attribute schemas (and of the documents in portal-schemas.openapi.ts). */

export const LINK: SchemaObject = { type: 'string', format: 'uri' };

export function text(description: string): SchemaObject {
  return { type: 'string', description };
}

export function texts(description: string): SchemaObject {
  return { type: 'array', items: { type: 'string' }, description };
}

export function attributes(description: string, properties: Record<string, SchemaObject>): SchemaObject {
  return { type: 'object', description, additionalProperties: false, properties };
}

/** A description's language, as `languageAttributes` writes it. */
export const LANGUAGE: Record<string, SchemaObject> = {
  languageCode: text('ISO 639-2 code of the description language, e.g. deu'),
  language: text('Name of that language, in the language of the answer (Content-Language)'),
};

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { FIXTURES } from './fixture-paths';

/** The XML Schemas of the standards the service reads and writes (fixtures README, `schemas/`). */
export const SCHEMAS = path.join(FIXTURES, 'schemas');

/**
 * A schema with every `schemaLocation` that points at the web pointed at the file of that name
 * beside it: validation never goes to the network, and a schema missing here fails loudly.
 */
function localised(contents: string): string {
  return contents.replace(/schemaLocation="[^"]*\/([^/"]+\.xsd)"/g, 'schemaLocation="$1"');
}

let preloaded: { fileName: string; contents: string }[] | undefined;

function schemaFiles(): { fileName: string; contents: string }[] {
  preloaded ??= readdirSync(SCHEMAS)
    .filter((name) => name.endsWith('.xsd'))
    .map((fileName) => ({
      fileName,
      contents: localised(readFileSync(path.join(SCHEMAS, fileName), 'utf8')),
    }));
  return preloaded;
}

export interface SchemaValidation {
  valid: boolean;
  /** libxml2's messages, each with the line it names. */
  errors: string[];
}

/** Validates `xml` against `schema` (a file name in `SCHEMAS`, such as `ead.xsd`) with libxml2. */
export async function validateAgainst(schema: string, xml: string): Promise<SchemaValidation> {
  const files = schemaFiles();
  const main = files.find((file) => file.fileName === schema);
  if (main === undefined) throw new Error(`No schema ${schema} in ${SCHEMAS}`);
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [main],
    preload: files.filter((file) => file !== main),
    maxMemoryPages: 4096,
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.rawMessage) };
}

/**
 * Validates `xml` against several schemas at once, each of its own namespace: for a document that
 * holds another's elements where its schema checks them strictly (an OAI-PMH answer's Dublin Core
 * or EAD records), against all of theirs.
 */
export async function validateAgainstAll(schemas: readonly string[], xml: string): Promise<SchemaValidation> {
  const files = schemaFiles();
  const imports = schemas.map((schema) => {
    const file = files.find((candidate) => candidate.fileName === schema);
    if (file === undefined) throw new Error(`No schema ${schema} in ${SCHEMAS}`);
    const namespace = /targetNamespace="([^"]*)"/.exec(file.contents)?.[1] ?? '';
    return `<xs:import namespace="${namespace}" schemaLocation="${schema}"/>`;
  });
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [
      {
        fileName: 'together.xsd',
        contents: `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">${imports.join('')}</xs:schema>`,
      },
    ],
    preload: files,
    maxMemoryPages: 4096,
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.rawMessage) };
}

import { readFile, stat } from 'node:fs/promises';
import { badRequest } from '../import-errors';
import { ImportRoots } from './import-roots';
import { allowedUrl, fetchText, UrlLimits } from './url-fetch';

/** Log messages and mapping files are small texts, read whole. */
export const MAX_PARAMETER_FILE_BYTES = 1024 * 1024;

async function readSmallFile(file: string, what: string): Promise<string> {
  if ((await stat(file)).size > MAX_PARAMETER_FILE_BYTES) {
    throw badRequest(`The ${what} file is larger than ${MAX_PARAMETER_FILE_BYTES} bytes`);
  }
  return readFile(file, 'utf8');
}

/**
 * The `log` parameter's message: the content of the file it names when that is a readable file
 * inside the import roots, otherwise the parameter itself. A path outside the roots is never
 * opened; one of the service's own files is refused (`ImportRoots`).
 */
export async function logMessageOf(log: string | undefined, roots: ImportRoots): Promise<string | null> {
  if (log === undefined) return null;
  const file = await roots.resolveFile(log, 'Parameter "log"');
  return file === undefined ? log : readSmallFile(file, 'log message');
}

/** The `properties` parameter's mapping text: from a file inside the import roots or a URL. */
export async function mappingOf(
  properties: string | undefined,
  roots: ImportRoots,
  urls: UrlLimits,
): Promise<string | undefined> {
  if (properties === undefined) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(properties)) {
    return fetchText(allowedUrl(properties), { ...urls, maxBytes: MAX_PARAMETER_FILE_BYTES });
  }
  const file = await roots.resolveFile(properties, 'Parameter "properties"');
  if (file === undefined) {
    throw badRequest(`properties: not a readable file inside the import roots: ${properties}`);
  }
  return readSmallFile(file, 'properties');
}

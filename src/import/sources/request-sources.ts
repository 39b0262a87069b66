import { createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { FormatReader, ImportSource } from '../formats/format-reader';
import { badRequest, tooLarge } from '../import-errors';
import { ArchiveLimits, archiveSources } from './archive-sources';
import { ImportRoots } from './import-roots';
import { allowedUrl, fetchUrl, UrlLimits } from './url-fetch';
import { fileSource, ImportWorkspace } from './workspace';

/** Everything needed to turn a spooled request body into sources. */
export interface BodyContext {
  /** The spooled body. */
  file: string;
  /** Its length in bytes. */
  size: number;
  /** The request's `Content-Type` header. */
  contentType?: string;
  /** The `tag` parameter: the tag of a body that is one document. */
  tag: string;
  workspace: ImportWorkspace;
  roots: ImportRoots;
  urls: UrlLimits;
  archives: ArchiveLimits;
}

const DEFAULT_DOCUMENT_TYPES = ['application/xml', 'text/xml'];
const PATH_LIST = 'text/plain';
const URL_MAP = 'application/json';
/** Path lists and URL maps are read whole, so they are kept small. */
const MAX_LIST_BYTES = 8 * 1024 * 1024;

/** `application/xml; charset=utf-8` → `application/xml`. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0].trim().toLowerCase();
}

function isDocumentType(mediaType: string, reader: FormatReader): boolean {
  if (reader.documentTypes !== undefined) return reader.documentTypes.includes(mediaType);
  return DEFAULT_DOCUMENT_TYPES.includes(mediaType) || mediaType.endsWith('+xml');
}

async function smallText(file: string, what: string): Promise<string> {
  if ((await stat(file)).size > MAX_LIST_BYTES) {
    throw tooLarge(`A ${what} may not be larger than ${MAX_LIST_BYTES} bytes`);
  }
  return (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
}

/** Local files, one path per line; every one must be a readable file inside the import roots. */
async function pathListSources(body: BodyContext): Promise<ImportSource[]> {
  if (!body.roots.configured) {
    throw badRequest('Local paths cannot be imported: no import roots are configured (IMPORT_ROOTS)');
  }
  const paths = (await smallText(body.file, 'path list'))
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (paths.length === 0) throw badRequest('The path list names no files');
  // Every path is checked before any file is read.
  const resolved = await Promise.all(
    paths.map((name) => body.roots.resolveFile(name, `The path list's "${name}"`)),
  );
  const refused = paths.filter((_, index) => resolved[index] === undefined);
  if (refused.length > 0) {
    throw badRequest({
      message: `Not readable files inside the import roots: ${refused.join(', ')}`,
      paths: refused,
    });
  }
  return Promise.all(
    paths.map(async (name, index) => {
      const file = resolved[index] as string;
      return fileSource(name, file, { size: (await stat(file)).size });
    }),
  );
}

function parseUrlMap(text: string): [string, URL][] {
  let map: unknown;
  try {
    map = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The URL map is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    throw badRequest('The URL map must be a JSON object of name → URL');
  }
  const entries = Object.entries(map);
  if (entries.length === 0) throw badRequest('The URL map names no documents');
  return entries.map(([name, url]) => {
    if (typeof url !== 'string') throw badRequest(`The URL for "${name}" is not a string`);
    return [name, allowedUrl(url)];
  });
}

/** Documents fetched from the URLs of a name → URL map, before the import's transaction starts. */
async function urlMapSources(body: BodyContext): Promise<ImportSource[]> {
  const entries = parseUrlMap(await smallText(body.file, 'URL map'));
  const sources: ImportSource[] = [];
  for (const [name, url] of entries) {
    const target = body.workspace.newFile();
    await fetchUrl(url, body.urls, createWriteStream(target));
    sources.push(fileSource(name, target, { size: (await stat(target)).size }));
  }
  return sources;
}

/**
 * The sources of a request body. `raw` readers get the body as it is; for `documents` readers the
 * media type decides: one document, a path list, a URL map, or (anything else) an archive.
 */
export async function requestSources(reader: FormatReader, body: BodyContext): Promise<ImportSource[]> {
  const mediaType = mediaTypeOf(body.contentType);
  const { tag, file, size } = body;
  if (reader.input === 'raw') {
    return [fileSource(tag, file, { contentType: mediaType || undefined, size })];
  }
  if (mediaType === PATH_LIST) return pathListSources(body);
  if (mediaType === URL_MAP) return urlMapSources(body);
  if (isDocumentType(mediaType, reader)) {
    return [fileSource(tag, file, { contentType: mediaType, size })];
  }
  return archiveSources(body.file, body.workspace, body.archives);
}

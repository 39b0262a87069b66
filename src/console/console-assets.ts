import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where `npm run build` puts the console's page, style and compiled scripts. Both `src/console`
 * and `dist/console` are two folders below the project, so the same path serves the service run
 * from its sources (tests) and from its build.
 */
export const CONSOLE_PUBLIC_DIR = path.resolve(__dirname, '../../dist/console/public');

/** The files the console serves, by name: nothing else under the folder is reachable. */
const ASSET_NAME = /^[a-z][a-z0-9-]*\.(js|css)$/;

const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * What the console's pages may load: their own scripts, style and JSON endpoints, nothing from
 * elsewhere, no inline code, and no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface ConsoleAsset {
  body: Buffer;
  mediaType: string;
}

/** The console's page, or one of its assets by name; undefined for any other name or a missing build. */
export async function consoleAsset(name: string): Promise<ConsoleAsset | undefined> {
  if (name !== 'index.html' && !ASSET_NAME.test(name)) return undefined;
  try {
    const body = await readFile(path.join(CONSOLE_PUBLIC_DIR, name));
    return { body, mediaType: MEDIA_TYPES[path.extname(name)] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

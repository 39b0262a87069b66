import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { Transform, TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { badRequest, ImportHttpError } from '../import-errors';
import { isSpecialAddress } from './address-policy';

export interface UrlLimits {
  /** Whether loopback, private, link-local and other special addresses may be reached. */
  allowPrivate: boolean;
  /** For the whole fetch, redirects included. */
  timeoutMs: number;
  maxBytes: number;
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** An http(s) URL, or a 400 naming what is wrong with `text`. */
export function allowedUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw badRequest(`Not a valid URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest(`Only http and https URLs may be imported: ${text}`);
  }
  return url;
}

function refused(host: string, address: string): ImportHttpError {
  return badRequest(
    `URL refused: ${host} is or resolves to ${address}, a loopback, private or otherwise ` +
      'special address (set IMPORT_ALLOW_PRIVATE_URLS to allow it)',
  );
}

/**
 * A DNS lookup that refuses special addresses. Handing it to the request makes the socket connect
 * to exactly the addresses checked here, so a second, different DNS answer cannot slip through.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '');
      const special = allowPrivate ? undefined : addresses.find((a) => isSpecialAddress(a.address));
      if (special !== undefined) return callback(refused(hostname, special.address), '');
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Sockets never connect to IP literals through `lookup`, so those are checked here. */
function checkLiteralHost(url: URL, allowPrivate: boolean): void {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!allowPrivate && isIP(host) !== 0 && isSpecialAddress(host)) throw refused(url.hostname, host);
}

function request(url: URL, lookup: LookupFunction, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    // No shared agent: a pooled socket could have been opened without this lookup.
    client
      .get(url, { agent: false, lookup, signal, headers: { accept: '*/*' } }, resolve)
      .on('error', reject);
  });
}

function byteLimit(maxBytes: number, url: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) {
        done(badRequest(`The document at ${url} is larger than the limit of ${maxBytes} bytes`));
      } else {
        done(null, chunk);
      }
    },
  });
}

/** Follows redirects, checking every hop, to the first answer that is not a redirect. */
async function finalResponse(start: URL, limits: UrlLimits, signal: AbortSignal): Promise<IncomingMessage> {
  const lookup = guardedLookup(limits.allowPrivate);
  let url = start;
  for (let hop = 0; ; hop += 1) {
    checkLiteralHost(url, limits.allowPrivate);
    const response = await request(url, lookup, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(status) || location === undefined) return response;
    response.resume();
    if (hop === MAX_REDIRECTS) throw badRequest(`More than ${MAX_REDIRECTS} redirects from ${start.href}`);
    url = allowedUrl(location, url);
  }
}

async function copyResponse(url: URL, limits: UrlLimits, destination: Writable, signal: AbortSignal) {
  const response = await finalResponse(url, limits, signal);
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    response.resume();
    throw badRequest(`${url.href} answered ${status} ${response.statusMessage ?? ''}`.trim());
  }
  if (Number(response.headers['content-length']) > limits.maxBytes) {
    response.destroy();
    throw badRequest(`The document at ${url.href} is larger than the limit of ${limits.maxBytes} bytes`);
  }
  await pipeline(response, byteLimit(limits.maxBytes, url.href), destination, { signal });
}

/**
 * Copies the document at `url` into `destination`: http(s) only, special addresses refused unless
 * allowed, at most `maxBytes`, within `timeoutMs`. Every failure is a 400 naming the URL.
 */
export async function fetchUrl(url: URL, limits: UrlLimits, destination: Writable): Promise<void> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    await copyResponse(url, limits, destination, signal);
  } catch (error) {
    destination.destroy();
    if (error instanceof ImportHttpError) throw error;
    if (signal.aborted) {
      throw badRequest(`Fetching ${url.href} took longer than ${limits.timeoutMs} ms`);
    }
    throw badRequest(`Could not fetch ${url.href}: ${(error as Error).message}`);
  }
}

/** The document at `url` as UTF-8 text (a mapping file), within the same rules. */
export async function fetchText(url: URL, limits: UrlLimits): Promise<string> {
  const chunks: Buffer[] = [];
  const collector = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await fetchUrl(url, limits, collector);
  return Buffer.concat(chunks).toString('utf8');
}

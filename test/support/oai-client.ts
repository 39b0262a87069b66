import request from 'supertest';
import { validateAgainstAll } from './xml-schemas';

/** Reading OAI-PMH answers in tests: fetched through the app, checked against the schema, taken apart. */

export interface OaiHeader {
  id: string;
  datestamp: string;
  sets: string[];
  deleted: boolean;
}

/** `GET /oai?<query>` with the token; the answer's text, after checking status and media type. */
export async function getOai(
  server: Parameters<typeof request>[0],
  query: string,
  token?: string,
): Promise<string> {
  const call = request(server).get(`/oai?${query}`);
  const response = await (token === undefined ? call : call.set('Authorization', `Bearer ${token}`));
  if (response.status !== 200) throw new Error(`/oai?${query} answered ${response.status}: ${response.text}`);
  expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
  return response.text;
}

/** The schemas of the records' formats, by the namespaces their elements are in. */
const RECORD_SCHEMAS: Record<string, string> = {
  'http://www.openarchives.org/OAI/2.0/oai_dc/': 'oai_dc.xsd',
  'urn:isbn:1-931666-22-9': 'ead.xsd',
  'http://ead3.archivists.org/schema/': 'ead3.xsd',
};

/**
 * Fails the test unless `xml` is valid against the protocol's schema, `OAI-PMH.xsd`, and the
 * records in it against their formats' own, which its strict wildcards ask for.
 */
export async function expectValidOai(xml: string): Promise<void> {
  const records = Object.entries(RECORD_SCHEMAS).flatMap(([namespace, schema]) =>
    xml.includes(`"${namespace}"`) ? [schema] : [],
  );
  const validation = await validateAgainstAll(['OAI-PMH.xsd', ...records], xml);
  expect(validation.errors).toEqual([]);
  expect(validation.valid).toBe(true);
}

export function errorCode(xml: string): string | undefined {
  return /<error code="(\w+)">/.exec(xml)?.[1];
}

/** The `request` element's attributes. */
export function requestAttributes(xml: string): Record<string, string> {
  const element = /<request([^>]*)>/.exec(xml)?.[1] ?? '';
  return Object.fromEntries(
    [...element.matchAll(/ (\w+)="([^"]*)"/g)].map(([, name, value]) => [name, value]),
  );
}

export function headersOf(xml: string): OaiHeader[] {
  return [...xml.matchAll(/<header( status="deleted")?>(.*?)<\/header>/g)].map(([, deleted, content]) => ({
    id: /<identifier>(.*?)<\/identifier>/.exec(content)![1],
    datestamp: /<datestamp>(.*?)<\/datestamp>/.exec(content)![1],
    sets: [...content.matchAll(/<setSpec>(.*?)<\/setSpec>/g)].map((match) => match[1]),
    deleted: deleted !== undefined,
  }));
}

/** The resumption token's value (empty for the one ending a list) and its cursor; undefined without one. */
export function tokenOf(xml: string): { value: string; cursor: string } | undefined {
  const match = /<resumptionToken([^>]*)>(.*?)<\/resumptionToken>/.exec(xml);
  if (match === null) return undefined;
  return { value: match[2], cursor: /cursor="(\d+)"/.exec(match[1])?.[1] ?? '' };
}

/**
 * Every header of a list, page by page along its resumption tokens, each answer checked against
 * the schema; with the answers' texts.
 */
export async function harvest(
  server: Parameters<typeof request>[0],
  query: string,
  token: string,
): Promise<{ headers: OaiHeader[]; pages: string[] }> {
  const pages = [await getOai(server, query, token)];
  for (;;) {
    const xml = pages[pages.length - 1];
    await expectValidOai(xml);
    const next = tokenOf(xml);
    if (next === undefined || next.value === '') break;
    const verb = /verb=(\w+)/.exec(query)![1];
    pages.push(await getOai(server, `verb=${verb}&resumptionToken=${encodeURIComponent(next.value)}`, token));
  }
  return { headers: pages.flatMap(headersOf), pages };
}

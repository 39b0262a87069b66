import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * A small typed JSON:API 1.0 serializer: the document shapes the portal sends and the functions
 * that assemble them. Nothing here knows about items or the store.
 */

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

export interface ResourceIdentifier {
  id: string;
  type: string;
}

/**
 * A to-one relationship that has an item; one that has none is `null` (as the specification words
 * it, where JSON:API would write `{"data": null}`).
 */
export interface ToOneRelationship {
  data: ResourceIdentifier;
  links?: { related: string };
}

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, ToOneRelationship | null>;
  /** `self`, `search`, and one per relationship that has an item (the specification's, not JSON:API's). */
  links: { self: string; search: string; [relationship: string]: string };
  meta?: Record<string, unknown>;
}

export interface PaginationLinks {
  first: string;
  last: string;
  prev?: string;
  next?: string;
}

export interface CollectionDocument {
  data: ResourceObject[];
  links: PaginationLinks;
  meta: { total: number; pages: number; totalIsLowerBound?: true; facets?: unknown[] };
  included?: ResourceObject[];
}

export interface SingleDocument {
  data: ResourceObject;
  included?: ResourceObject[];
}

export interface MetaDocument {
  meta: Record<string, unknown>;
  links: { self: string };
}

export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { parameter: string };
  /** The request id (`X-Request-Id`), to match a user's report with the server's logs. */
  meta?: { requestId: string };
}

export interface ErrorDocument {
  errors: ErrorObject[];
}

export type JsonApiDocument = CollectionDocument | SingleDocument | MetaDocument | ErrorDocument;

/** Number of pages for `total` results; an empty result still has its (empty) first page. */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

export function paginationLinks(
  page: number,
  pages: number,
  pageUrl: (page: number) => string,
): PaginationLinks {
  const links: PaginationLinks = { first: pageUrl(1), last: pageUrl(pages) };
  if (page > 1) links.prev = pageUrl(Math.min(page - 1, pages));
  if (page < pages) links.next = pageUrl(page + 1);
  return links;
}

/**
 * A page of a collection. `totalIsLowerBound`: the store counted only the first hits (on Neo4j,
 * `PORTAL_COUNT_LIMIT`); `meta` says so, and the links page through those.
 */
export function collectionDocument(
  data: ResourceObject[],
  paging: {
    page: number;
    limit: number;
    total: number;
    totalIsLowerBound?: boolean;
    pageUrl: (page: number) => string;
  },
  included: ResourceObject[] = [],
  facets?: unknown[],
): CollectionDocument {
  const pages = pageCount(paging.total, paging.limit);
  const document: CollectionDocument = {
    data,
    links: paginationLinks(paging.page, pages, paging.pageUrl),
    meta: {
      total: paging.total,
      pages,
      ...(paging.totalIsLowerBound === true && { totalIsLowerBound: true }),
      ...(facets !== undefined && { facets }),
    },
  };
  if (included.length > 0) document.included = included;
  return document;
}

export function singleDocument(data: ResourceObject, included: ResourceObject[] = []): SingleDocument {
  return included.length > 0 ? { data, included } : { data };
}

export function errorObject(status: number, detail?: string, parameter?: string): ErrorObject {
  const error: ErrorObject = { status: String(status), title: STATUS_CODES[status] ?? 'Error' };
  if (detail !== undefined) error.detail = detail;
  if (parameter !== undefined) error.source = { parameter };
  return error;
}

export function encodeDocument(document: JsonApiDocument): Buffer {
  return Buffer.from(JSON.stringify(document), 'utf8');
}

/** Sends a document with the bare JSON:API media type (see `sendBody`). */
export function sendDocument(reply: FastifyReply, status: number, document: JsonApiDocument): void {
  sendBody(reply, status, encodeDocument(document));
}

/**
 * Sends an encoded document with the bare JSON:API media type: an object sent as it is would be
 * typed `application/json; charset=utf-8`, and JSON:API forbids media type parameters on responses.
 */
export function sendBody(reply: FastifyReply, status: number, body: Buffer): void {
  void reply.code(status).header('Content-Type', JSONAPI_MEDIA_TYPE).send(body);
}

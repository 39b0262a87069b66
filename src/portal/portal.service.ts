import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { GraphReader, GraphStore, SearchQuery, StoredItem } from '../graph/graph-store';
import { ReadCache } from '../graph/read-cache';
import {
  JsonApiDocument,
  MetaDocument,
  ResourceObject,
  collectionDocument,
  encodeDocument,
  singleDocument,
} from './jsonapi';
import { PORTAL_TYPES, PortalType, isPortalType } from './portal-types';
import { PortalUrls } from './portal-urls';
import { PortalItem, toResource } from './resources';
import { SearchParams } from './search-params';

function notFound(id: string): NotFoundException {
  return new NotFoundException(`No item with id "${id}"`);
}

/**
 * Which items a scoped search looks at. A country's repositories are its only children. Below a
 * repository or a unit, browsing (no `q`) lists the direct children and a text search looks at
 * the whole subtree, as the reference portal does.
 */
function scopeDepth(scopeType: PortalType, params: SearchParams): 'children' | 'descendants' {
  return scopeType !== 'Country' && params.q !== undefined ? 'descendants' : 'children';
}

function storeQuery(params: SearchParams): SearchQuery {
  return {
    text: params.q,
    types: params.types.length > 0 ? params.types : PORTAL_TYPES,
    offset: (params.page - 1) * params.limit,
    limit: params.limit,
  };
}

/** The API's index: its version and routes under `base`. */
function indexDocument(base: string): MetaDocument {
  return {
    meta: {
      name: 'Portal API',
      version: '1',
      status: 'experimental',
      types: [...PORTAL_TYPES],
      routes: { search: `${base}/search`, fetch: `${base}/{id}`, searchIn: `${base}/{id}/search` },
    },
    links: { self: base },
  };
}

/**
 * Encoded documents kept per store version, in bytes: popular searches and items are asked again
 * and again between imports, and an answer kept skips its reads, its resources and its encoding.
 */
const CACHED_DOCUMENT_BYTES = 32 * 1024 * 1024;

/**
 * Search, fetch and scoped search over the store, answered as encoded JSON:API documents. The
 * documents depend only on the request's parsed parameters and the store's content, so where the
 * store numbers its versions they are kept for the version they were read at.
 */
@Injectable()
export class PortalService {
  private readonly urls: PortalUrls;
  private readonly documents = new ReadCache(CACHED_DOCUMENT_BYTES);
  /** The index document, encoded: it depends on the configuration alone. */
  private readonly indexBody: Buffer;

  constructor(
    private readonly store: GraphStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.urls = new PortalUrls(config.publicUrl);
    this.indexBody = encodeDocument(indexDocument(this.urls.base));
  }

  index(): Buffer {
    return this.indexBody;
  }

  search(params: SearchParams): Promise<Buffer> {
    return this.answer(['search', params], async (tx) => {
      const result = await tx.search(storeQuery(params));
      const hitIds = result.hits.map((hit) => hit.id);
      const resources = await this.resources(tx, hitIds);
      return collectionDocument(inOrder(resources, hitIds), {
        ...params,
        total: result.total,
        pageUrl: (page) => this.urls.searchPage(params, page),
      });
    });
  }

  searchIn(scopeId: string, params: SearchParams): Promise<Buffer> {
    return this.answer(['searchIn', scopeId, params], async (tx) => {
      const scopeType = (await tx.getTypes([scopeId])).get(scopeId);
      if (!isPortalType(scopeType)) throw notFound(scopeId);
      const result = await tx.search({
        ...storeQuery(params),
        scope: { id: scopeId, depth: scopeDepth(scopeType, params) },
      });
      const hitIds = result.hits.map((hit) => hit.id);
      const resources = await this.resources(tx, [scopeId, ...hitIds]);
      return collectionDocument(
        inOrder(resources, hitIds),
        { ...params, total: result.total, pageUrl: (page) => this.urls.searchPage(params, page, scopeId) },
        inOrder(resources, [scopeId]),
      );
    });
  }

  fetch(id: string): Promise<Buffer> {
    return this.answer(['fetch', id], async (tx) => {
      const resource = (await this.resources(tx, [id])).get(id);
      if (resource === undefined) throw notFound(id);
      if (resource.type !== 'DocumentaryUnit') return singleDocument(resource);
      // A unit comes with its holder and its parent, the context a reader needs to place it.
      const relatedIds = Object.values(resource.relationships ?? {}).flatMap(({ data }) =>
        data === null ? [] : [data.id],
      );
      return singleDocument(resource, inOrder(await this.resources(tx, relatedIds), relatedIds));
    });
  }

  /** The document `build` makes, encoded, or the one kept for the request and the read's version. */
  private answer(request: unknown[], build: (tx: GraphReader) => Promise<JsonApiDocument>): Promise<Buffer> {
    const key = JSON.stringify(request);
    return this.store.read(async (tx) => {
      const version = tx.version;
      const kept = version === undefined ? undefined : this.documents.lookup<Buffer>(version, key);
      if (kept) return kept.value;
      const body = encodeDocument(await build(tx));
      if (version !== undefined) this.documents.put(version, key, body, body.length);
      return body;
    });
  }

  /** Resource objects of the portal items among `ids`, keyed by id. */
  private async resources(tx: GraphReader, ids: readonly string[]): Promise<Map<string, ResourceObject>> {
    const items = [...(await tx.getItems(ids)).values()].flatMap((stored) =>
      isPortalType(stored.bundle.type) ? [{ stored, type: stored.bundle.type }] : [],
    );
    const subitems = await tx.countChildren(items.map(({ stored }) => stored.bundle.id));
    const units = items.filter(({ type }) => type === 'DocumentaryUnit').map(({ stored }) => stored);
    const holders = await this.holders(tx, units);
    const resources = new Map<string, ResourceObject>();
    for (const { stored, type } of items) {
      const { id } = stored.bundle;
      const item: PortalItem = { stored, type, subitems: subitems.get(id) ?? 0, holderId: holders.get(id) };
      resources.set(id, toResource(item, this.urls));
    }
    return resources;
  }

  /**
   * The repository holding each unit: its `heldBy` target, or else the repository above its
   * parent. Siblings share a parent, so asking for the parents' ancestors asks for fewer chains.
   */
  private async holders(tx: GraphReader, units: StoredItem[]): Promise<Map<string, string>> {
    const holders = new Map<string, string>();
    const parents = new Map<string, string>();
    for (const { bundle, edges } of units) {
      const holder = edges.heldBy?.[0];
      const parent = edges.childOf?.[0];
      if (holder !== undefined) holders.set(bundle.id, holder);
      else if (parent !== undefined) parents.set(bundle.id, parent);
    }
    if (parents.size === 0) return holders;
    const chains = await tx.ancestors([...new Set(parents.values())]);
    for (const [id, parent] of parents) {
      const repository = chains.get(parent)?.find((ancestor) => ancestor.type === 'Repository');
      if (repository !== undefined) holders.set(id, repository.id);
    }
    return holders;
  }
}

function inOrder(resources: Map<string, ResourceObject>, ids: readonly string[]): ResourceObject[] {
  return ids.flatMap((id) => {
    const resource = resources.get(id);
    return resource === undefined ? [] : [resource];
  });
}

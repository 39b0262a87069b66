import { GoneException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import {
  GraphReader,
  GraphStore,
  SearchOrder,
  SearchQuery,
  SearchResult,
  StoredItem,
  UPDATED_FIRST,
} from '../graph/graph-store';
import { ReadCache } from '../graph/read-cache';
import { tombstoneOf, tombstoneRecordId } from '../items/tombstones';
import { Localisation } from './attributes';
import { facetClasses } from './facets';
import {
  JsonApiDocument,
  MetaDocument,
  ResourceObject,
  collectionDocument,
  encodeDocument,
  singleDocument,
} from './jsonapi';
import { LanguagePreference, LocalNames } from './languages';
import { PORTAL_TYPES, PortalType, isPortalType } from './portal-types';
import { PortalUrls } from './portal-urls';
import { PortalItem, toResource, withFields } from './resources';
import { FILTER_PARAMETERS, SearchParams, searchedTypes } from './search-params';

function notFound(id: string): NotFoundException {
  return new NotFoundException(`No item with id "${id}"`);
}

/** An answer: an encoded document, or the URL of the new place of an item that moved (a 301). */
export type PortalAnswer = { body: Buffer } | { movedTo: string };

/**
 * Which items a scoped search looks at. A country's repositories, a set's agents and a
 * vocabulary's concepts are their only children. Below a repository or a unit, browsing (no `q`)
 * lists the direct children and a text search looks at the whole subtree, as the reference does.
 */
function scopeDepth(scopeType: PortalType, params: SearchParams): 'children' | 'descendants' {
  const hierarchy = scopeType === 'Repository' || scopeType === 'DocumentaryUnit';
  return hierarchy && params.q !== undefined ? 'descendants' : 'children';
}

function storeQuery(params: SearchParams): SearchQuery {
  const filters: NonNullable<SearchQuery['filters']> = {};
  for (const [parameter, values] of Object.entries(params.filters)) {
    filters[FILTER_PARAMETERS[parameter as keyof typeof FILTER_PARAMETERS]] = values;
  }
  const query: SearchQuery = {
    types: searchedTypes(params),
    offset: (params.page - 1) * params.limit,
    limit: params.limit,
    filters,
    facets: params.facets,
  };
  if (params.query !== undefined) query.textQuery = params.query;
  else if (params.q !== undefined) query.text = params.q;
  const order = searchOrder(params.sort?.order, params.q === undefined);
  if (order !== undefined) query.order = order;
  return query;
}

/**
 * The order the store is asked for: relevance (its default) with text; without text, where
 * relevance means nothing, the most recently updated first, as the reference orders them.
 */
function searchOrder(asked: SearchOrder | undefined, textless: boolean): SearchOrder | undefined {
  if (asked === undefined || asked.key === 'score') {
    if (!textless) return asked?.descending === true ? asked : undefined;
    return {
      ...UPDATED_FIRST,
      descending: asked?.descending === true ? !UPDATED_FIRST.descending : UPDATED_FIRST.descending,
    };
  }
  return asked;
}

/** The API's index: its version and routes under `base`. */
function indexDocument(base: string): MetaDocument {
  return {
    meta: {
      name: 'Portal API',
      version: '1',
      status: 'experimental',
      types: [...PORTAL_TYPES],
      routes: {
        search: `${base}/search`,
        fetch: `${base}/{id}`,
        searchIn: `${base}/{id}/search`,
        related: `${base}/{id}/related`,
      },
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
 * documents depend only on the request's parsed parameters, its language and the store's content,
 * so where the store numbers its versions they are kept for the version they were read at.
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

  search(params: SearchParams, language: LanguagePreference): Promise<PortalAnswer> {
    return this.answer(['search', params, language], async (tx) => {
      const localisation = localisationOf(language);
      const result = await tx.search(storeQuery(params));
      const hitIds = result.hits.map((hit) => hit.id);
      const resources = await this.resources(tx, hitIds, localisation);
      return collectionDocument(
        this.fielded(inOrder(resources, hitIds), params),
        { ...params, total: result.total, pageUrl: (page) => this.urls.searchPage(params, page) },
        [],
        await this.facets(tx, params, result, localisation),
      );
    });
  }

  searchIn(scopeId: string, params: SearchParams, language: LanguagePreference): Promise<PortalAnswer> {
    return this.answer(['searchIn', scopeId, params, language], async (tx) => {
      const scopeType = (await tx.getTypes([scopeId])).get(scopeId);
      if (!isPortalType(scopeType)) return this.missing(tx, scopeId, (newId) => this.urls.itemSearch(newId));
      const query = { ...storeQuery(params), scope: { id: scopeId, depth: scopeDepth(scopeType, params) } };
      return this.searchAround(tx, scopeId, query, this.urls.itemSearch(scopeId), params, language);
    });
  }

  /** The search of the items that share a `Link` with an item, as the reference's `/{id}/related`. */
  related(id: string, params: SearchParams, language: LanguagePreference): Promise<PortalAnswer> {
    return this.answer(['related', id, params, language], async (tx) => {
      const type = (await tx.getTypes([id])).get(id);
      if (!isPortalType(type)) return this.missing(tx, id, (newId) => this.urls.related(newId));
      const query = storeQuery(params);
      query.filters = { ...query.filters, ids: await linkedItemIds(tx, id) };
      return this.searchAround(tx, id, query, this.urls.related(id), params, language);
    });
  }

  fetch(id: string, fields: SearchParams['fields'], language: LanguagePreference): Promise<PortalAnswer> {
    return this.answer(['fetch', id, fields, language], async (tx) => {
      const localisation = localisationOf(language);
      const resource = (await this.resources(tx, [id], localisation)).get(id);
      if (resource === undefined) return this.missing(tx, id, (newId) => this.urls.item(newId));
      const fielded = (resources: ResourceObject[]) => resources.map((each) => withFields(each, fields));
      if (resource.type !== 'DocumentaryUnit') return singleDocument(withFields(resource, fields));
      // A unit comes with its holder and its parent, the context a reader needs to place it.
      const relatedIds = Object.values(resource.relationships ?? {}).flatMap((related) =>
        related === null ? [] : [related.data.id],
      );
      const related = inOrder(await this.resources(tx, relatedIds, localisation), relatedIds);
      return singleDocument(withFields(resource, fields), fielded(related));
    });
  }

  /** A page of the search `query` about an item (at `path`), with the item in `included`. */
  private async searchAround(
    tx: GraphReader,
    id: string,
    query: SearchQuery,
    path: string,
    params: SearchParams,
    language: LanguagePreference,
  ): Promise<JsonApiDocument> {
    const localisation = localisationOf(language);
    const result = await tx.search(query);
    const hitIds = result.hits.map((hit) => hit.id);
    const resources = await this.resources(tx, [id, ...hitIds], localisation);
    return collectionDocument(
      this.fielded(inOrder(resources, hitIds), params),
      { ...params, total: result.total, pageUrl: (page) => this.urls.searchPage(params, page, path) },
      this.fielded(inOrder(resources, [id]), params),
      await this.facets(tx, params, result, localisation),
    );
  }

  /**
   * What an id no item has answers: the URL (`urlOf` the new id) of an item an import moved,
   * 410 Gone for one an import deleted, 404 otherwise.
   */
  private async missing(
    tx: GraphReader,
    id: string,
    urlOf: (newId: string) => string,
  ): Promise<{ movedTo: string }> {
    const tombstone = tombstoneOf(await tx.getRecord(tombstoneRecordId(id)));
    if (tombstone === undefined) throw notFound(id);
    if (tombstone.movedTo !== undefined) return { movedTo: urlOf(tombstone.movedTo) };
    const by = tombstone.event === undefined ? '' : ` by import ${tombstone.event}`;
    throw new GoneException(`Item "${id}" was deleted on ${tombstone.removed}${by}`);
  }

  /** The answer `build` makes, encoded, or the one kept for the request and the read's version. */
  private answer(
    request: unknown[],
    build: (tx: GraphReader) => Promise<JsonApiDocument | { movedTo: string }>,
  ): Promise<PortalAnswer> {
    const key = JSON.stringify(request);
    return this.store.read(async (tx) => {
      const version = tx.version;
      const kept = version === undefined ? undefined : this.documents.lookup<PortalAnswer>(version, key);
      if (kept) return kept.value;
      const built = await build(tx);
      const answer: PortalAnswer = 'movedTo' in built ? built : { body: encodeDocument(built) };
      const size = 'body' in answer ? answer.body.length : answer.movedTo.length;
      if (version !== undefined) this.documents.put(version, key, answer, size);
      return answer;
    });
  }

  private fielded(resources: ResourceObject[], params: SearchParams): ResourceObject[] {
    return resources.map((resource) => withFields(resource, params.fields));
  }

  /** `meta.facets` as the reference writes it, when the request asks for facets. */
  private async facets(
    tx: GraphReader,
    params: SearchParams,
    result: SearchResult,
    localisation: Localisation,
  ): Promise<unknown[] | undefined> {
    if (params.facets.length === 0) return undefined;
    const holderIds = (result.facets?.holder ?? []).map((facet) => facet.value);
    const holders = await this.resources(tx, holderIds, localisation);
    const holderName = (id: string) => {
      const name = holders.get(id)?.attributes.name;
      return typeof name === 'string' ? name : undefined;
    };
    return facetClasses(params, result.facets ?? {}, localisation.names, holderName);
  }

  /** Resource objects of the portal items among `ids`, keyed by id. */
  private async resources(
    tx: GraphReader,
    ids: readonly string[],
    localisation: Localisation,
  ): Promise<Map<string, ResourceObject>> {
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
      resources.set(id, toResource(item, this.urls, localisation));
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

/** The other ends of the links that have the item at one end. */
async function linkedItemIds(tx: GraphReader, id: string): Promise<string[]> {
  const links = await tx.getItems(await tx.incoming(id, 'hasLinkTarget'));
  const ends = [...links.values()].flatMap((link) => link.edges.hasLinkTarget ?? []);
  return [...new Set(ends)].filter((end) => end !== id);
}

function localisationOf(preference: LanguagePreference): Localisation {
  return { preference, names: new LocalNames(preference.tag) };
}

function inOrder(resources: Map<string, ResourceObject>, ids: readonly string[]): ResourceObject[] {
  return ids.flatMap((id) => {
    const resource = resources.get(id);
    return resource === undefined ? [] : [resource];
  });
}

import { GoneException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import {
  GraphReader,
  GraphStore,
  SearchOrder,
  SearchQuery,
  StoredItem,
  UPDATED_FIRST,
} from '../graph/graph-store';
import { Page, PageItem, PageRequest } from '../graph/graph-search';
import { ReadCache } from '../graph/read-cache';
import { tombstoneOf, tombstoneRecordId } from '../graph/records/tombstone-record';
import { ItemType } from '../items/item-types';
import { Tombstone } from '../items/tombstones';
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
import {
  PORTAL_TYPES,
  PortalType,
  SUBTREE_TEXT_SCOPES,
  isPortalType,
  portalTypeDefinition,
} from './portal-types';
import { PortalUrls } from './portal-urls';
import { toResource, withFields } from './resources';
import { FILTER_PARAMETERS, SearchParams, searchedTypes } from './search-params';
import { Localisation } from './types';

function notFound(id: string): NotFoundException {
  return new NotFoundException(`No item with id "${id}"`);
}

/** An answer: an encoded document, or the URL of the new place of an item that moved (a 301). */
export type PortalAnswer = { body: Buffer } | { movedTo: string };

/**
 * The scopes whose scoped search looks at everything below them. A country's repositories, a
 * set's agents and a vocabulary's concepts are their only children. Below the types that say so
 * (a repository, a unit), browsing (no `q`) lists the direct children and a text search looks at
 * the whole subtree, as the reference does.
 */
function deepScopeTypes(params: SearchParams): readonly ItemType[] {
  return params.q !== undefined ? SUBTREE_TEXT_SCOPES : [];
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
  /** Bounds a search's total and facets where counting costs what the hits number (Neo4j). */
  private readonly countLimit: number;

  constructor(
    private readonly store: GraphStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.urls = new PortalUrls(config.publicUrl);
    this.countLimit = config.portal.countLimit;
    this.indexBody = encodeDocument(indexDocument(this.urls.base));
  }

  index(): Buffer {
    return this.indexBody;
  }

  // Each answer is one `readPage` call: on Neo4j, one statement and one round trip.

  search(params: SearchParams, language: LanguagePreference): Promise<PortalAnswer> {
    return this.answer(['search', params, language], async (tx) => {
      const page = await tx.readPage({ search: storeQuery(params), countLimit: this.countLimit });
      return this.collection(page, params, language, (number) => this.urls.searchPage(params, number));
    });
  }

  searchIn(scopeId: string, params: SearchParams, language: LanguagePreference): Promise<PortalAnswer> {
    return this.answerAbout(
      'searchIn',
      scopeId,
      params,
      language,
      {
        search: { ...storeQuery(params), scope: { id: scopeId, depth: 'children' } },
        deepScopeTypes: deepScopeTypes(params),
      },
      (id) => this.urls.itemSearch(id),
    );
  }

  /** The search of the items that share a `Link` with an item, as the reference's `/{id}/related`. */
  related(id: string, params: SearchParams, language: LanguagePreference): Promise<PortalAnswer> {
    return this.answerAbout(
      'related',
      id,
      params,
      language,
      { search: storeQuery(params), linkedTo: id },
      (aboutId) => this.urls.related(aboutId),
    );
  }

  /**
   * A collection about one item (its search, its related items), read with the item and its
   * tombstone in the same call: 404, 410 or 301 when the item is not a portal item; `pathOf` gives
   * the collection's path for an item's id, a moved item's new one included.
   */
  private answerAbout(
    kind: string,
    id: string,
    params: SearchParams,
    language: LanguagePreference,
    request: Omit<PageRequest, 'ids' | 'recordId'>,
    pathOf: (id: string) => string,
  ): Promise<PortalAnswer> {
    return this.answer([kind, id, params, language], async (tx) => {
      const page = await tx.readPage({
        ...request,
        ids: [id],
        recordId: tombstoneRecordId(id),
        countLimit: this.countLimit,
      });
      if (!isPortalType(page.items.get(id)?.stored.bundle.type)) return missing(page, id, pathOf);
      const path = pathOf(id);
      return this.collection(
        page,
        params,
        language,
        (number) => this.urls.searchPage(params, number, path),
        id,
      );
    });
  }

  fetch(id: string, fields: SearchParams['fields'], language: LanguagePreference): Promise<PortalAnswer> {
    return this.answer(['fetch', id, fields, language], async (tx) => {
      const localisation = localisationOf(language);
      const page = await tx.readPage({ ids: [id], context: true, recordId: tombstoneRecordId(id) });
      const resource = this.resource(page.items.get(id), localisation);
      if (resource === undefined) return missing(page, id, (newId) => this.urls.item(newId));
      if (portalTypeDefinition(resource.type as PortalType).includesRelated !== true) {
        return singleDocument(withFields(resource, fields));
      }
      // A unit comes with its holder and its parent (its type says so): the context to place it.
      const included = Object.values(resource.relationships ?? {}).flatMap((relationship) => {
        const other = relationship && this.resource(page.items.get(relationship.data.id), localisation);
        return other ? [withFields(other, fields)] : [];
      });
      return singleDocument(withFields(resource, fields), included);
    });
  }

  /**
   * One stored item of any type, for the exports: the item, or, for an id no item has, what the
   * portal answers (the new URL `urlOf` gives for a moved item, 410 for a deleted one, 404).
   */
  storedItem(id: string, urlOf: (newId: string) => string): Promise<StoredItem | { movedTo: string }> {
    return this.store.read(async (tx) => {
      const page = await tx.readPage({ ids: [id], recordId: tombstoneRecordId(id) });
      return page.items.get(id)?.stored ?? missing(page, id, urlOf);
    });
  }

  /** A page of hits as a collection document, with the item `aboutId` (a scope) in `included`. */
  private collection(
    page: Page,
    params: SearchParams,
    language: LanguagePreference,
    pageUrl: (page: number) => string,
    aboutId?: string,
  ): JsonApiDocument {
    const localisation = localisationOf(language);
    const resources = (items: (PageItem | undefined)[]) =>
      items.flatMap((item) => {
        const resource = this.resource(item, localisation);
        return resource === undefined ? [] : [withFields(resource, params.fields)];
      });
    return collectionDocument(
      resources(page.hits),
      { ...params, total: page.total, totalIsLowerBound: page.totalIsLowerBound, pageUrl },
      aboutId === undefined ? [] : resources([page.items.get(aboutId)]),
      this.facets(page, params, localisation),
    );
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

  /** `meta.facets` as the reference writes it, when the request asks for facets. */
  private facets(page: Page, params: SearchParams, localisation: Localisation): unknown[] | undefined {
    if (params.facets.length === 0) return undefined;
    const itemName = (id: string) => {
      const name = this.resource(page.items.get(id), localisation)?.attributes.name;
      return typeof name === 'string' ? name : undefined;
    };
    return facetClasses(params, page.facets ?? {}, { names: localisation.names, itemName });
  }

  /** The resource object of a portal item; undefined for none or an item of another type. */
  private resource(item: PageItem | undefined, localisation: Localisation): ResourceObject | undefined {
    const type = item?.stored.bundle.type;
    if (item === undefined || !isPortalType(type)) return undefined;
    return toResource({ ...item, type }, this.urls, localisation);
  }
}

function missing(page: Page, id: string, urlOf: (newId: string) => string): { movedTo: string } {
  return missingItem(tombstoneOf(page.record), id, urlOf);
}

/**
 * What an id no item has answers, given its tombstone (undefined when it has none): the URL
 * (`urlOf` the new id) of an item an import moved, 410 Gone for one an import deleted, 404
 * otherwise. The exports answer alike.
 */
export function missingItem(
  tombstone: Tombstone | undefined,
  id: string,
  urlOf: (newId: string) => string,
): { movedTo: string } {
  if (tombstone === undefined) throw notFound(id);
  if (tombstone.movedTo !== undefined) return { movedTo: urlOf(tombstone.movedTo) };
  const by = tombstone.event === undefined ? '' : ` by import ${tombstone.event}`;
  throw new GoneException(`Item "${id}" was deleted on ${tombstone.removed}${by}`);
}

function localisationOf(preference: LanguagePreference): Localisation {
  return { preference, names: new LocalNames(preference.tag) };
}

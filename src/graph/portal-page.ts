import { ItemType } from '../items/item-types';
import type { GraphReader } from './graph-store';
import type { ItemRef, StoredItem } from './item-graph';
import type { Page, PageItem, PageRequest, SearchQuery } from './graph-search';

/** The hits a store bounding its counts (`PageRequest.countLimit`) counts at most for `request`. */
export function countedHits(request: PageRequest): number | undefined {
  const { countLimit, search } = request;
  if (countLimit === undefined || search === undefined) return undefined;
  return Math.max(countLimit, search.offset + search.limit + 1);
}

/**
 * `readPage` made of the port's finer reads, for a store whose reads are local calls: the same
 * reads the portal made before it asked for pages (SQLite answers them from memory and caches).
 * Its totals and facets are exact: it ignores `countLimit`.
 */
export async function composedPage(reader: GraphReader, request: PageRequest): Promise<Page> {
  const asked = request.ids ?? [];
  const types = await reader.getTypes(asked);
  // The record tells what became of a missing item: read only when one is missing.
  const missing = request.recordId !== undefined && asked.some((id) => !types.has(id));
  const record = missing ? await reader.getRecord(request.recordId!) : undefined;
  const search = request.search && (await composedSearch(reader, request, types));
  const result = search ? await reader.search(search) : { total: 0, hits: [] as ItemRef[] };
  const hitIds = result.hits.map((hit) => hit.id);
  const read = await pageItems(reader, [...hitIds, ...asked.filter((id) => types.has(id))]);
  const wanted = [
    ...asked,
    ...(request.context ? asked.flatMap((id) => related(read.get(id))) : []),
    ...(result.facets?.holder ?? []).map((facet) => facet.value),
  ];
  const context = await pageItems(
    reader,
    wanted.filter((id) => !read.has(id)),
  );
  const hits = hitIds.flatMap((id) => read.get(id) ?? []);
  const items = new Map(
    wanted.flatMap((id) => {
      const item = read.get(id) ?? context.get(id);
      return item === undefined ? [] : [[id, item] as const];
    }),
  );
  return { hits, total: result.total, ...(result.facets && { facets: result.facets }), items, record };
}

/** The search `request` asks for, its scope's depth and its linked items worked out. */
async function composedSearch(
  reader: GraphReader,
  request: PageRequest,
  types: Map<string, ItemType>,
): Promise<SearchQuery | undefined> {
  const search = { ...request.search! };
  const { scope } = search;
  if (scope !== undefined && request.deepScopeTypes !== undefined) {
    const type = types.get(scope.id) ?? (await reader.getTypes([scope.id])).get(scope.id);
    if (type === undefined) return undefined;
    search.scope = {
      id: scope.id,
      depth: request.deepScopeTypes.includes(type) ? 'descendants' : 'children',
    };
  }
  if (request.linkedTo !== undefined) {
    search.filters = { ...search.filters, ids: await linkedItemIds(reader, request.linkedTo) };
  }
  return search;
}

/** The other ends of the links that have the item at one end. */
async function linkedItemIds(reader: GraphReader, id: string): Promise<string[]> {
  const links = await reader.getItems(await reader.incoming(id, 'hasLinkTarget'));
  const ends = [...links.values()].flatMap((link) => link.edges.hasLinkTarget ?? []);
  return [...new Set(ends)].filter((end) => end !== id);
}

/** What a unit names in its relationships: its holder and its parent. */
function related(item: PageItem | undefined): string[] {
  if (item?.stored.bundle.type !== 'DocumentaryUnit') return [];
  const parent = item.stored.edges.childOf?.[0];
  return [item.holderId, parent].filter((id): id is string => id !== undefined);
}

/** The items among `ids` that exist, with their children counted and their holders found. */
async function pageItems(reader: GraphReader, ids: readonly string[]): Promise<Map<string, PageItem>> {
  if (ids.length === 0) return new Map();
  const stored = [...(await reader.getItems(ids)).values()];
  const subitems = await reader.countChildren(stored.map(({ bundle }) => bundle.id));
  const holders = await holdersOf(
    reader,
    stored.filter(({ bundle }) => bundle.type === 'DocumentaryUnit'),
  );
  return new Map(
    stored.map((item) => {
      const { id } = item.bundle;
      const holderId = holders.get(id);
      return [id, { stored: item, subitems: subitems.get(id) ?? 0, ...(holderId && { holderId }) }];
    }),
  );
}

/**
 * The repository holding each unit: its `heldBy` target, or else the repository above its
 * parent. Siblings share a parent, so asking for the parents' ancestors asks for fewer chains.
 */
async function holdersOf(reader: GraphReader, units: StoredItem[]): Promise<Map<string, string>> {
  const holders = new Map<string, string>();
  const parents = new Map<string, string>();
  for (const { bundle, edges } of units) {
    const holder = edges.heldBy?.[0];
    const parent = edges.childOf?.[0];
    if (holder !== undefined) holders.set(bundle.id, holder);
    else if (parent !== undefined) parents.set(bundle.id, parent);
  }
  if (parents.size === 0) return holders;
  const chains = await reader.ancestors([...new Set(parents.values())]);
  for (const [id, parent] of parents) {
    const repository = chains.get(parent)?.find((ancestor) => ancestor.type === 'Repository');
    if (repository !== undefined) holders.set(id, repository.id);
  }
  return holders;
}

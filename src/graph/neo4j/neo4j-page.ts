import { int, Node, Relationship } from 'neo4j-driver';
import { ITEM_TYPES, ItemEdgeType } from '../../items/item-types';
import { Page, PageItem, PageRequest } from '../graph-search';
import { countedHits } from '../portal-page';
import { recordFromNode, storedItem } from './bundle-rows';
import { PAGE, PAGE_ITEMS, PageScope } from './cypher-pages';
import { CypherStatement } from './cypher-statements';
import { facetCounts, searchParameters } from './search-parameters';
import { StatementRunner } from './statement-runner';

/** What `PAGE` statements return for an item (`itemRow`). */
interface ItemRow {
  item: Node;
  dependents: Node[];
  links: Relationship[];
  edges: { type: ItemEdgeType; target: string }[];
  subitems: number;
  holder: string | null;
}

/** What `$examine` is without a `countLimit`: no search reaches it. */
const UNBOUNDED = 2 ** 31 - 1;

/** `readPage` on Neo4j: one `PAGE` statement, one round trip. */
export async function readPage(run: StatementRunner, request: PageRequest): Promise<Page> {
  const { statement, parameters, searched } = pageStatement(request);
  const [row] = await run(statement, parameters);
  const items = (row.get('items') as ItemRow[]).map(pageItem);
  const record = row.get('record') as Node | null;
  const page: Page = {
    hits: (row.get('hits') as ItemRow[]).map(pageItem),
    total: row.get('total') as number,
    items: new Map(items.map((item) => [item.stored.bundle.id, item])),
    ...(record !== null && { record: recordFromNode(record) }),
  };
  if (row.get('bounded') === true) page.totalIsLowerBound = true;
  const facets = request.search?.facets ?? [];
  // A structured query that keeps no word counts nothing, as `search` answers it.
  if (facets.length > 0 && !searched) page.facets = {};
  else if (facets.length > 0) {
    page.facets = facetCounts(facets, {
      types: row.get('types') as string[],
      languages: row.get('languages') as string[][],
      countries: row.get('countries') as string[],
      holders: row.get('holders') as string[],
    });
  }
  return page;
}

function pageItem(row: ItemRow): PageItem {
  const stored = storedItem(row);
  return { stored, subitems: row.subitems, ...(row.holder !== null && { holderId: row.holder }) };
}

/**
 * The statement and parameters of a request. Without a search (or with a structured query that
 * keeps no word) the statement still reads the items and the record, over no hits.
 */
export function pageStatement(request: PageRequest): {
  statement: CypherStatement;
  parameters: Record<string, unknown>;
  searched: boolean;
} {
  const search = request.search;
  const asked = search && searchParameters(search);
  const beside = {
    itemIds: request.ids ?? [],
    context: request.context === true,
    recordId: request.recordId ?? null,
  };
  if (asked === undefined) return { statement: PAGE_ITEMS, parameters: beside, searched: false };
  const scope: PageScope =
    request.linkedTo !== undefined ? 'linked' : search?.scope !== undefined ? 'scoped' : 'everywhere';
  const { source } = asked;
  const orderKey = asked.page.orderKey as string;
  const family = PAGE[source][scope][orderKey as keyof (typeof PAGE)['browse']['everywhere']];
  if (family === undefined) throw new Error(`No page statement orders ${source} hits by ${orderKey}`);
  const statement = family[asked.page.descending === true ? 'descending' : 'ascending'];
  const facets = new Set(search?.facets ?? []);
  const deepTypes = request.deepScopeTypes ?? (search?.scope?.depth === 'descendants' ? ITEM_TYPES : []);
  const types = search?.types?.length ? search.types : ITEM_TYPES;
  const all: Record<string, unknown> = {
    ...asked.parameters,
    ...beside,
    types,
    scopeId: search?.scope?.id ?? null,
    deepTypes,
    linkedTo: request.linkedTo ?? null,
    countTypes: facets.has('type'),
    countLanguages: facets.has('lang'),
    countCountries: facets.has('country'),
    countHolders: facets.has('holder'),
    examine: int(countedHits(request) ?? UNBOUNDED),
    descending: asked.page.descending,
    offset: asked.page.offset,
    limit: asked.page.limit,
  };
  const parameters = Object.fromEntries(statement.parameters.map((name) => [name, all[name]]));
  return { statement, parameters, searched: true };
}

import { int, Node, Record as ResultRecord, Relationship } from 'neo4j-driver';
import {
  AccessPointMatch,
  ChildPage,
  GraphReader,
  ItemListQuery,
  ItemRef,
  ListedItem,
  RecordNode,
  RecordQuery,
  SearchQuery,
  SearchResult,
  StoredItem,
  SubtreeEntry,
} from '../graph-store';
import { ItemEdgeType, ItemType } from '../../items/item-types';
import { Page, PageRequest } from '../graph-search';
import { recordFromNode, storedItem } from './bundle-rows';
import {
  ANCESTORS,
  CHILDREN,
  COUNT_CHILDREN,
  COUNT_RECORDS,
  CypherStatement,
  FIND_ACCESS_POINTS,
  FIND_RECORDS,
  GET_ITEM_PROPERTY,
  GET_ITEMS,
  GET_RECORD,
  INCOMING,
  LIST_ITEMS,
  SUBTREE,
  SEARCH,
} from './cypher';
import { HASH, ID, TYPE } from './graph-model';
import { readPage } from './neo4j-page';
import { facetCounts, searchParameters } from './search-parameters';
import { StatementRunner } from './statement-runner';

/** Rows per statement: large enough to keep round trips few, small enough to bound one message. */
const BATCH_SIZE = 1000;

export class Neo4jGraphReader implements GraphReader {
  constructor(protected readonly run: StatementRunner) {}

  async getItems(ids: readonly string[]): Promise<Map<string, StoredItem>> {
    const records = await this.perBatch(ids, (batch) => this.run(GET_ITEMS, { ids: batch }));
    return new Map(
      records.map((record) => {
        const item = storedItem({
          item: record.get('item') as Node,
          dependents: record.get('dependents') as Node[],
          links: record.get('links') as Relationship[],
          edges: record.get('edges') as { type: ItemEdgeType; target: string }[],
        });
        return [item.bundle.id, item];
      }),
    );
  }

  getHashes(ids: readonly string[]): Promise<Map<string, string>> {
    return this.itemProperty<string>(ids, HASH);
  }

  getTypes(ids: readonly string[]): Promise<Map<string, ItemType>> {
    return this.itemProperty<ItemType>(ids, TYPE);
  }

  private async itemProperty<T>(ids: readonly string[], property: string): Promise<Map<string, T>> {
    const records = await this.perBatch(ids, (batch) =>
      this.run(GET_ITEM_PROPERTY, { ids: batch, property }),
    );
    return new Map(records.map((record) => [record.get('id') as string, record.get('value') as T]));
  }

  async ancestors(ids: readonly string[]): Promise<Map<string, ItemRef[]>> {
    const records = await this.perBatch(ids, (batch) => this.run(ANCESTORS, { ids: batch }));
    return new Map(
      records.map((record) => [record.get('id') as string, record.get('ancestors') as ItemRef[]]),
    );
  }

  async countChildren(ids: readonly string[]): Promise<Map<string, number>> {
    const records = await this.perBatch(ids, (batch) => this.run(COUNT_CHILDREN, { ids: batch }));
    return new Map(records.map((record) => [record.get('id') as string, record.get('children') as number]));
  }

  async subtree(rootId: string): Promise<SubtreeEntry[]> {
    const records = await this.run(SUBTREE, { rootId });
    return records.map((record) => ({
      id: record.get('id') as string,
      type: record.get('type') as ItemType,
      localId: String(record.get('localId') ?? ''),
      parentId: record.get('parentId') as string,
    }));
  }

  async children(parentIds: readonly string[], page: ChildPage): Promise<Map<string, SubtreeEntry[]>> {
    const listed = new Map(parentIds.map((id): [string, SubtreeEntry[]] => [id, []]));
    const records = await this.perBatch(parentIds, (batch) =>
      this.run(CHILDREN, { parentIds: batch, after: page.after ?? '', limit: int(page.limit) }),
    );
    for (const record of records) {
      const parentId = record.get('parentId') as string;
      listed.get(parentId)?.push({
        id: record.get('id') as string,
        type: record.get('type') as ItemType,
        localId: String(record.get('localId') ?? ''),
        parentId,
      });
    }
    return listed;
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const asked = searchParameters(query);
    if (asked === undefined) return { total: 0, hits: [], ...(query.facets?.length ? { facets: {} } : {}) };
    // The statements of each scope take their own parameters: `searchParameters` gives each its own.
    const statements: Record<'page' | 'summary', CypherStatement> =
      SEARCH[asked.source][query.scope?.depth ?? 'everywhere'];
    const facets = query.facets ?? [];
    const [summary] = await this.run(statements.summary, {
      ...asked.parameters,
      countTypes: facets.includes('type'),
      countLanguages: facets.includes('lang'),
    });
    const total = summary.get('total') as number;
    const page =
      total <= query.offset ? [] : await this.run(statements.page, { ...asked.parameters, ...asked.page });
    const result: SearchResult = {
      total,
      hits: page.map((record) => ({ id: record.get('id') as string, type: record.get('type') as ItemType })),
    };
    if (facets.length > 0) {
      result.facets = facetCounts(facets, {
        types: summary.get('types') as string[],
        languages: summary.get('languages') as string[][],
        countries: summary.get('countries') as string[],
        holders: summary.get('holders') as string[],
      });
    }
    return result;
  }

  readPage(request: PageRequest): Promise<Page> {
    return readPage(this.run, request);
  }

  async findAccessPoints(scopeId: string, names: readonly string[]): Promise<AccessPointMatch[]> {
    if (names.length === 0) return [];
    const records = await this.run(FIND_ACCESS_POINTS, { scopeId, names });
    return records.map((record) => ({
      accessPointId: record.get('accessPointId') as string,
      itemId: record.get('itemId') as string,
      name: record.get('name') as string,
      type: String(record.get('type') ?? ''),
    }));
  }

  async incoming(targetId: string, type: ItemEdgeType): Promise<string[]> {
    const records = await this.run(INCOMING[type], { targetId });
    return records.map((record) => record.get('id') as string);
  }

  async listItems(query: ItemListQuery): Promise<ListedItem[]> {
    const records = await this.run(LIST_ITEMS, {
      type: query.type,
      after: query.after ?? '',
      from: query.updated?.from ?? null,
      until: query.updated?.until ?? null,
      edge: query.withEdge ?? null,
      below: query.below ?? null,
      limit: int(query.limit),
    });
    return records.map((record) => ({
      id: record.get('id') as string,
      updated: record.get('updated') as string,
    }));
  }

  async getRecord(id: string): Promise<RecordNode | undefined> {
    const [record] = await this.run(GET_RECORD, { id });
    return record && recordFromNode(record.get('record') as Node);
  }

  async findRecords(query: RecordQuery): Promise<{ total: number; records: RecordNode[] }> {
    const filter = {
      type: query.type,
      equals: query.equals ?? {},
      rangeProperty: query.range?.property ?? ID,
      from: query.range?.from ?? null,
      to: query.range?.to ?? null,
      after: query.after ?? null,
    };
    const [counted] = await this.run(COUNT_RECORDS, filter);
    const page = await this.run(
      query.orderBy?.descending ? FIND_RECORDS.descending : FIND_RECORDS.ascending,
      {
        ...filter,
        orderProperty: query.orderBy?.property ?? ID,
        offset: int(query.offset ?? 0),
        limit: int(query.limit ?? Number.MAX_SAFE_INTEGER),
      },
    );
    return {
      total: counted.get('total') as number,
      records: page.map((record) => recordFromNode(record.get('record') as Node)),
    };
  }

  /** Runs `work` once per batch of `ids` (deduplicated) and concatenates the rows. */
  protected async perBatch<T>(
    ids: readonly T[],
    work: (batch: T[]) => Promise<ResultRecord[]>,
  ): Promise<ResultRecord[]> {
    const rows: ResultRecord[] = [];
    for (const batch of batches([...new Set(ids)])) rows.push(...(await work(batch)));
    return rows;
  }
}

/** `items` in batches of `BATCH_SIZE`. */
export function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += BATCH_SIZE) yield items.slice(start, start + BATCH_SIZE);
}

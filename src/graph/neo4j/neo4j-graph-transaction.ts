import { int, Node, Record as ResultRecord, Relationship } from 'neo4j-driver';
import {
  AccessPointMatch,
  GraphReader,
  GraphWriter,
  ItemListQuery,
  ItemRef,
  ItemWrite,
  ListedItem,
  RecordNode,
  RecordQuery,
  SearchQuery,
  SearchResult,
  StoredItem,
  SubtreeEntry,
} from '../graph-store';
import { ItemEdgeType, ItemType } from '../../items/item-types';
import { Page, PageRequest } from '../portal-page';
import {
  DependentLinkRow,
  FlatBundle,
  flattenItem,
  recordFromNode,
  recordProps,
  storedItem,
} from './bundle-rows';
import {
  ADD_EDGES,
  ANCESTORS,
  COUNT_CHILDREN,
  COUNT_RECORDS,
  CREATE_DEPENDENTS,
  CREATE_ITEMS,
  CypherStatement,
  DELETE_EDGES,
  DELETE_ITEMS,
  FIND_ACCESS_POINTS,
  FIND_RECORDS,
  GET_ITEM_PROPERTY,
  GET_ITEMS,
  GET_RECORD,
  INCOMING,
  LIST_ITEMS,
  LINK_TO_DEPENDENT,
  LINK_TO_ITEM,
  MERGE_DEPENDENTS,
  MERGE_ITEMS,
  PRUNE_DEPENDENTS,
  PUT_RECORDS,
  RETARGET_EDGES,
  SET_HASHES,
  SUBTREE,
  SEARCH,
  UNLINK_DEPENDENTS,
} from './cypher';
import { HASH, ID, RESERVED_LABELS, TYPE } from './graph-model';
import { readPage } from './neo4j-page';
import { facetCounts, searchParameters } from './search-parameters';
import { StatementRunner } from './statement-runner';

/** Rows per statement: large enough to keep round trips few, small enough to bound one message. */
const BATCH_SIZE = 1000;
/** Items written between two checks of the transaction's memory: one round trip each. */
const MEMORY_CHECK_ITEMS = 1000;

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

export class Neo4jGraphWriter extends Neo4jGraphReader implements GraphWriter {
  /** Items written since the transaction's memory was last checked. */
  private uncheckedItems = 0;

  /**
   * `checkMemory`, run after `putItems` every `MEMORY_CHECK_ITEMS` items, refuses a transaction
   * grown past the service's limit before the server's heap runs out (`transaction-memory.ts`).
   */
  constructor(
    run: StatementRunner,
    private readonly checkMemory?: () => Promise<void>,
  ) {
    super(run);
  }

  /**
   * Ids this transaction looked up and found no item for, and has not written since: as writers
   * take turns (the lock node), no other can write them meanwhile, so such an item is written as
   * new, with nothing of its own to match, prune or unlink first.
   */
  private readonly absent = new Set<string>();

  override async getHashes(ids: readonly string[]): Promise<Map<string, string>> {
    return this.noteAbsent(ids, await super.getHashes(ids));
  }

  override async getItems(ids: readonly string[]): Promise<Map<string, StoredItem>> {
    return this.noteAbsent(ids, await super.getItems(ids));
  }

  override async getTypes(ids: readonly string[]): Promise<Map<string, ItemType>> {
    return this.noteAbsent(ids, await super.getTypes(ids));
  }

  async putItems(items: readonly ItemWrite[]): Promise<void> {
    const now = new Date().toISOString();
    const counted = new Map<string, number>();
    for (const { bundle } of items) counted.set(bundle.id, (counted.get(bundle.id) ?? 0) + 1);
    // Written once in this call and known absent: new. An id written twice goes the long way.
    const isNew = ({ bundle }: ItemWrite) => this.absent.has(bundle.id) && counted.get(bundle.id) === 1;
    // Every node first, then item edges: an edge to an item later in the list finds the item. One
    // to an item not in the list leaves a placeholder, which that item takes over when written.
    for (const batch of batches(items)) {
      await this.createBundles(batch.filter(isNew).map(flattenItem), now);
      await this.writeBundles(batch.filter((item) => !isNew(item)).map(flattenItem), now);
    }
    for (const batch of batches(items)) await this.replaceEdges(batch, isNew);
    for (const { bundle } of items) this.absent.delete(bundle.id);
    this.uncheckedItems += items.length;
    if (this.checkMemory && this.uncheckedItems >= MEMORY_CHECK_ITEMS) {
      this.uncheckedItems = 0;
      await this.checkMemory();
    }
  }

  /** Nothing to do: Neo4j stores no derived paths; its writes are complete as they run. */
  async setHashes(hashes: ReadonlyMap<string, string>): Promise<void> {
    const rows = [...hashes].map(([id, hash]) => ({ id, hash }));
    for (const batch of batches(rows)) await this.run(SET_HASHES, { rows: batch });
  }

  async deleteItems(ids: readonly string[]): Promise<void> {
    await this.perBatch(ids, (batch) => this.run(DELETE_ITEMS, { ids: batch }));
  }

  async addEdges(edges: readonly { from: string; type: ItemEdgeType; to: string }[]): Promise<void> {
    const unique = new Map(edges.map((edge) => [JSON.stringify([edge.from, edge.type, edge.to]), edge]));
    for (const [type, rows] of groupBy([...unique.values()], (edge) => edge.type)) {
      for (const batch of batches(rows)) {
        await this.run(ADD_EDGES[type], { rows: batch.map(({ from, to }) => ({ from, to })) });
      }
    }
  }

  async retargetEdges(fromId: string, toId: string, type: ItemEdgeType): Promise<void> {
    if (fromId !== toId) await this.run(RETARGET_EDGES[type], { fromId, toId });
  }

  async putRecords(records: readonly RecordNode[]): Promise<void> {
    for (const record of records) {
      if (RESERVED_LABELS.includes(record.type)) {
        throw new Error(`Record type "${record.type}" is a label the Neo4j store reserves`);
      }
    }
    for (const batch of batches(records)) {
      await this.run(PUT_RECORDS, {
        rows: batch.map((record) => ({
          type: record.type,
          props: recordProps(record.id, record.type, record.props),
        })),
      });
    }
  }

  private noteAbsent<T>(ids: readonly string[], found: Map<string, T>): Map<string, T> {
    for (const id of ids) {
      if (found.has(id)) this.absent.delete(id);
      else this.absent.add(id);
    }
    return found;
  }

  /** New items and their dependents, made in one statement per type, then tied together. */
  private async createBundles(bundles: FlatBundle[], now: string): Promise<void> {
    if (bundles.length === 0) return;
    for (const [type, rows] of groupBy(bundles, (bundle) => bundle.item.type)) {
      await this.run(CREATE_ITEMS[type], { rows: rows.map((bundle) => bundle.item.props), now });
    }
    const dependents = bundles.flatMap((bundle) => bundle.dependents);
    for (const [type, rows] of groupBy(dependents, (dependent) => dependent.type)) {
      for (const batch of batches(rows)) {
        await this.run(CREATE_DEPENDENTS[type], { rows: batch.map((dependent) => dependent.props) });
      }
    }
    await this.linkDependents(bundles.flatMap((bundle) => bundle.links));
  }

  private async writeBundles(bundles: FlatBundle[], now: string): Promise<void> {
    if (bundles.length === 0) return;
    for (const [type, rows] of groupBy(bundles, (bundle) => bundle.item.type)) {
      await this.run(MERGE_ITEMS[type], { rows: rows.map((bundle) => bundle.item.props), now });
    }
    const owners = bundles.map((bundle) => bundle.item.props.id);
    await this.run(PRUNE_DEPENDENTS, {
      rows: bundles.map((bundle) => ({
        owner: bundle.item.props.id,
        keep: bundle.dependents.map((dependent) => dependent.props.id),
      })),
    });
    await this.run(UNLINK_DEPENDENTS, { owners });
    const dependents = bundles.flatMap((bundle) => bundle.dependents);
    for (const [type, rows] of groupBy(dependents, (dependent) => dependent.type)) {
      for (const batch of batches(rows)) {
        await this.run(MERGE_DEPENDENTS[type], { rows: batch.map((dependent) => dependent.props) });
      }
    }
    await this.linkDependents(bundles.flatMap((bundle) => bundle.links));
  }

  private async linkDependents(links: DependentLinkRow[]): Promise<void> {
    const toItem = links.filter((link) => link.parent === undefined);
    const toDependent = links.filter((link) => link.parent !== undefined);
    for (const [statements, group] of [
      [LINK_TO_ITEM, toItem],
      [LINK_TO_DEPENDENT, toDependent],
    ] as const) {
      for (const [relation, rows] of groupBy(group, (link) => link.relation)) {
        for (const batch of batches(rows)) {
          await this.run(statements[relation], {
            rows: batch.map(({ owner, parent, child }) => ({ owner, parent: parent ?? null, child })),
          });
        }
      }
    }
  }

  /** A new item has no edges of its own to delete first. */
  private async replaceEdges(
    items: readonly ItemWrite[],
    isNew: (item: ItemWrite) => boolean,
  ): Promise<void> {
    const named = items.flatMap((item) =>
      (Object.entries(item.edges ?? {}) as [ItemEdgeType, string[]][]).map(([type, targets]) => ({
        from: item.bundle.id,
        type,
        targets,
        replaces: !isNew(item),
      })),
    );
    const replacing = named.filter((replacement) => replacement.replaces);
    for (const [type, replacements] of groupBy(replacing, (replacement) => replacement.type)) {
      await this.run(DELETE_EDGES[type], { ids: replacements.map((replacement) => replacement.from) });
    }
    await this.addEdges(
      named.flatMap(({ from, type, targets }) => targets.map((to) => ({ from, type, to }))),
    );
  }
}

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += BATCH_SIZE) yield items.slice(start, start + BATCH_SIZE);
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

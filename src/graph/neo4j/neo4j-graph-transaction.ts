import { GraphWriter, ItemWrite, RecordNode, StoredItem } from '../graph-store';
import { ItemEdgeType, ItemType } from '../../items/item-types';
import { Props } from '../../items/bundle';
import { DependentLinkRow, FlatBundle, flattenItem, recordProps } from './bundle-rows';
import {
  ADD_EDGES,
  CLAIM_DEPENDENTS,
  CLAIM_ITEMS,
  CREATE_DEPENDENTS,
  CREATE_ITEMS,
  DELETE_EDGES,
  DELETE_ITEMS,
  LINK_TO_DEPENDENT,
  LINK_TO_ITEM,
  MERGE_DEPENDENTS,
  MERGE_ITEMS,
  PLACEHOLDERS_AMONG,
  PRUNE_DEPENDENTS,
  PUT_RECORDS,
  RETARGET_EDGES,
  SET_HASHES,
  UNLINK_DEPENDENTS,
} from './cypher';
import type { CypherStatement } from './cypher-statements';
import { RESERVED_LABELS } from './graph-model';
import { StatementRunner } from './statement-runner';

/** Items written between two checks of the transaction's memory: one round trip each. */
const MEMORY_CHECK_ITEMS = 1000;

import { batches, Neo4jGraphReader } from './neo4j-graph-reader';

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

  /**
   * New items and their dependents, made in one statement per type, then tied together. Those that
   * a placeholder stands for take it over; the others are plainly created, which spares the
   * transaction a placeholder's label and index entry made and dropped again for each node.
   */
  private async createBundles(bundles: FlatBundle[], now: string): Promise<void> {
    if (bundles.length === 0) return;
    const dependents = bundles.flatMap((bundle) => bundle.dependents);
    const ids = [
      ...bundles.map((bundle) => bundle.item.props.id),
      ...dependents.map(({ props }) => props.id),
    ];
    const placeholders = new Set<unknown>();
    for (const batch of batches(ids)) {
      for (const row of await this.run(PLACEHOLDERS_AMONG, { ids: batch })) placeholders.add(row.get('id'));
    }
    const items = bundles.map(({ item }) => item);
    await this.createOrClaim(items, placeholders, CREATE_ITEMS, CLAIM_ITEMS, { now });
    await this.createOrClaim(dependents, placeholders, CREATE_DEPENDENTS, CLAIM_DEPENDENTS, {});
    await this.linkDependents(bundles.flatMap((bundle) => bundle.links));
  }

  /** Nodes by type, in batches: those a placeholder stands for by `claim`, the others by `create`. */
  private async createOrClaim<T extends string, P extends string>(
    nodes: readonly { type: T; props: Props }[],
    placeholders: ReadonlySet<unknown>,
    create: Record<T, CypherStatement<P>>,
    claim: Record<T, CypherStatement<P>>,
    parameters: Omit<Record<P, unknown>, 'rows'>,
  ): Promise<void> {
    for (const [type, rows] of groupBy(nodes, (node) => node.type)) {
      const claimed = (node: { props: Props }) => placeholders.has(node.props.id);
      for (const [statement, some] of [
        [create[type], rows.filter((node) => !claimed(node))],
        [claim[type], rows.filter(claimed)],
      ] as const) {
        for (const batch of batches(some)) {
          await this.run(statement, { ...parameters, rows: batch.map((node) => node.props) } as Record<
            P,
            unknown
          >);
        }
      }
    }
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

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

import { Bundle, Props } from '../../items/bundle';
import { ItemEdgeType, ItemType } from '../../items/item-types';
import { StoredItem } from '../graph-store';
import { attachDependents, DependentNode } from './dependent-rows';

/**
 * An item as the items cache holds it (`SELECT_ITEM_TEXTS` writes it): its row's values, its
 * dependents and its edges, props parsed. One string to an item, where its rows were some sixty
 * objects: tens of thousands of cached items cost the garbage collector next to nothing, and one
 * parse restores them.
 */
type ItemText = [
  id: string,
  type: ItemType,
  data: Props,
  hash: string,
  updated: string,
  dependents: DependentNode[],
  edges: [type: ItemEdgeType, dst: string][],
];

export function storedItemOf(text: string): StoredItem {
  const [id, type, data, hash, updated, dependents, edges] = JSON.parse(text) as ItemText;
  const bundle: Bundle = { id, type, data, relations: {} };
  attachDependents(bundle, dependents);
  const stored: StoredItem = { bundle, edges: {}, hash, updated };
  for (const [edgeType, dst] of edges) (stored.edges[edgeType] ??= []).push(dst);
  return stored;
}

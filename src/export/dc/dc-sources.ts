import { GraphReader, ItemRef, StoredItem } from '../../graph/graph-store';
import { DublinCoreSource } from './dublin-core';

/** Where a unit is: the repository that holds it and that repository's country, where it has them. */
export interface UnitPlace {
  repository?: string;
  country?: string;
}

/** The place of each unit among `unitIds`, from their ancestors, read in one call. */
export async function unitPlaces(
  tx: GraphReader,
  unitIds: readonly string[],
): Promise<Map<string, UnitPlace>> {
  const chains = unitIds.length === 0 ? new Map<string, ItemRef[]>() : await tx.ancestors(unitIds);
  return new Map(
    unitIds.map((id) => {
      const chain = chains.get(id) ?? [];
      const repository = chain.find((ancestor) => ancestor.type === 'Repository')?.id;
      const country = chain.find((ancestor) => ancestor.type === 'Country')?.id;
      return [id, { ...(repository ? { repository } : {}), ...(country ? { country } : {}) }];
    }),
  );
}

/**
 * Each item's Dublin Core source and place, read in one go for a page of items: their ancestors in
 * one call, the distinct repositories that hold them in another. Items other than units have
 * neither holder nor place.
 */
export async function dublinCoreSources(
  tx: GraphReader,
  items: readonly StoredItem[],
): Promise<Map<string, { source: DublinCoreSource; place: UnitPlace }>> {
  const units = items.filter((item) => item.bundle.type === 'DocumentaryUnit').map((item) => item.bundle.id);
  const places = await unitPlaces(tx, units);
  const holderIds = [...new Set([...places.values()].flatMap((place) => place.repository ?? []))];
  const holders = holderIds.length === 0 ? new Map<string, StoredItem>() : await tx.getItems(holderIds);
  return new Map(
    items.map((item) => {
      const place = places.get(item.bundle.id) ?? {};
      const holder = place.repository === undefined ? undefined : holders.get(place.repository)?.bundle;
      return [item.bundle.id, { source: { item: item.bundle, ...(holder ? { holder } : {}) }, place }];
    }),
  );
}

import { GraphStore } from '../graph/graph-store';
import { Bundle } from '../items/bundle';
import { itemHash } from '../items/change-detection';
import { ItemType } from '../items/item-types';

/** A named item that cannot be created as asked (bad or taken id); never a server fault. */
export class NamedItemError extends Error {
  override readonly name = 'NamedItemError';
}

/**
 * Ids that operators type for users and top-level scopes. They appear in URLs and in the `X-User`
 * header, so they are kept to characters that need no escaping there.
 */
const NAMED_ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;

/**
 * Creates a top-level item that has only an identifier and a name (a user, a vocabulary, an
 * authoritative set). Ids are global across item types, so an id taken by any item is refused.
 */
export async function addNamedItem(
  store: GraphStore,
  type: ItemType,
  id: string,
  name?: string,
): Promise<void> {
  if (!NAMED_ITEM_ID.test(id)) {
    throw new NamedItemError(
      `invalid id "${id}": use letters, digits, "_", "." and "-", starting with a letter or digit`,
    );
  }
  const bundle: Bundle = { id, type, data: { identifier: id, name: name ?? id }, relations: {} };
  await store.write(async (tx) => {
    const existing = await tx.getTypes([id]);
    const existingType = existing.get(id);
    if (existingType !== undefined) {
      throw new NamedItemError(`an item with id "${id}" already exists (${existingType})`);
    }
    await tx.putItems([{ bundle, hash: itemHash(bundle) }]);
  });
}

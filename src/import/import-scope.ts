import { GraphReader, StoredItem } from '../graph/graph-store';
import { ItemType } from '../items/item-types';
import { FormatReader, ImportContext } from './formats/format-reader';
import { badRequest, notFound } from './import-errors';

export type ImportScope = NonNullable<ImportContext['scope']>;

function identifierOf(id: string, item: StoredItem | undefined): string {
  const identifier = item?.bundle.data.identifier;
  return typeof identifier === 'string' ? identifier : id;
}

/**
 * The `scope` item as a reader sees it, with its ancestors and the identifier chain that prefixes
 * new ids. 404 when it does not exist; 400 when the format takes no scope, needs one, or needs
 * another type.
 */
export async function loadScope(
  tx: GraphReader,
  reader: FormatReader,
  id: string | undefined,
): Promise<ImportScope | undefined> {
  if (id === undefined) {
    if (reader.scopeRequired) throw badRequest(`The ${reader.name} import needs a scope`);
    return undefined;
  }
  if (reader.scopeTypes.length === 0) throw badRequest(`The ${reader.name} import takes no scope`);
  const item = (await tx.getItems([id])).get(id);
  if (item === undefined) throw notFound(`Scope not found: ${id}`);
  const type = item.bundle.type as ItemType;
  if (!reader.scopeTypes.includes(type)) {
    throw badRequest(
      `Scope ${id} is a ${type}; the ${reader.name} import takes a ${reader.scopeTypes.join(' or ')}`,
    );
  }
  const ancestors = (await tx.ancestors([id])).get(id) ?? [];
  const rootFirst = [...ancestors].reverse();
  const items = await tx.getItems(rootFirst.map((ancestor) => ancestor.id));
  const identifiers = [
    ...rootFirst.map((ancestor) => identifierOf(ancestor.id, items.get(ancestor.id))),
    identifierOf(id, item),
  ];
  return { ...item, ancestors, identifiers };
}

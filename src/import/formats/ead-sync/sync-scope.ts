import { GraphReader, SubtreeEntry } from '../../../graph/graph-store';
import { IDENTIFIER } from '../../../items/ontology';
import { notFound } from '../../import-errors';
import { ImportInputError } from '../format-reader';

/** The sync's own parameters. */
export interface SyncParams {
  /** A unit inside the import scope whose subtree alone is synchronised. */
  fonds?: string;
  /** Units the sync leaves alone, with their descendants (`ex`, repeatable). */
  excluded: Set<string>;
}

export function syncParams(query: Record<string, string | string[]>): SyncParams {
  const { fonds, ex = [] } = query;
  if (Array.isArray(fonds)) throw new ImportInputError('Parameter "fonds" may be given only once');
  if (fonds?.trim() === '') throw new ImportInputError('Parameter "fonds" must not be empty');
  return { fonds, excluded: new Set(Array.isArray(ex) ? ex : [ex]) };
}

/** The fonds as a subtree entry: 404 when it does not exist, 400 when it is no unit below the scope. */
export async function fondsEntry(store: GraphReader, fonds: string, scopeId: string): Promise<SubtreeEntry> {
  const item = (await store.getItems([fonds])).get(fonds);
  if (item === undefined) throw notFound(`Fonds not found: ${fonds}`);
  const ancestors = (await store.ancestors([fonds])).get(fonds) ?? [];
  if (item.bundle.type !== 'DocumentaryUnit' || !ancestors.some((ancestor) => ancestor.id === scopeId)) {
    throw new ImportInputError(`Fonds ${fonds} is not a documentary unit inside the scope ${scopeId}`);
  }
  const localId = item.bundle.data[IDENTIFIER];
  return {
    id: fonds,
    type: 'DocumentaryUnit',
    localId: typeof localId === 'string' ? localId : '',
    parentId: ancestors[0].id,
  };
}

/**
 * The documentary units the sync covers, parents first: everything below the scope or, as the
 * reference does, the fonds itself and everything below it.
 */
export async function syncScopeUnits(
  store: GraphReader,
  scopeId: string,
  fonds: string | undefined,
): Promise<SubtreeEntry[]> {
  const entries =
    fonds === undefined
      ? await store.subtree(scopeId)
      : [await fondsEntry(store, fonds, scopeId), ...(await store.subtree(fonds))];
  return entries.filter((entry) => entry.type === 'DocumentaryUnit');
}

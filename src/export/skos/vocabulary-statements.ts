import { GraphStore } from '../../graph/graph-store';
import { Bundle } from '../../items/bundle';
import { Statements, conceptStatements, conceptUri, schemeStatements } from './concept-triples';

/** Concepts read per store call: a page's bundles, and those they point to, are all that is held. */
export const CONCEPTS_PER_PAGE = 200;

/**
 * A vocabulary's statements, the scheme's first and then each concept's, read a page of concepts
 * at a time (in id order) so that a vocabulary of any size streams in bounded memory. Each page is
 * its own read: an import committed meanwhile shows in the pages read after it.
 */
export async function* vocabularyStatements(
  store: GraphStore,
  vocabulary: Bundle,
  schemeUri: string,
  pageSize = CONCEPTS_PER_PAGE,
): AsyncGenerator<Statements> {
  yield schemeStatements(schemeUri, vocabulary);
  for (let offset = 0; ; offset += pageSize) {
    const page = await store.read(async (tx) => {
      const { hits } = await tx.search({
        scope: { id: vocabulary.id, depth: 'children' },
        types: ['CvocConcept'],
        offset,
        limit: pageSize,
        order: { key: 'id', descending: false },
      });
      const ids = hits.map((hit) => hit.id);
      const concepts = await tx.getItems(ids);
      // One call per concept, one after the other: a transaction runs one statement at a time.
      const broader = new Map<string, string[]>();
      for (const id of ids) broader.set(id, await tx.incoming(id, 'narrower'));
      const others = new Set<string>();
      for (const [id, item] of concepts) {
        for (const target of [
          ...(item.edges.narrower ?? []),
          ...(item.edges.related ?? []),
          ...(broader.get(id) ?? []),
        ]) {
          if (!concepts.has(target)) others.add(target);
        }
      }
      const targets = await tx.getItems([...others]);
      return { ids, concepts, broader, targets };
    });
    const uriOf = (id: string): string | undefined => {
      const item = page.concepts.get(id) ?? page.targets.get(id);
      return item === undefined ? undefined : conceptUri(item.bundle, schemeUri);
    };
    for (const id of page.ids) {
      const item = page.concepts.get(id);
      if (item === undefined) continue;
      const context = { schemeUri, uriOf, broader: page.broader.get(id) ?? [] };
      yield* conceptStatements(item.bundle, item.edges, context);
    }
    if (page.ids.length < pageSize) return;
  }
}

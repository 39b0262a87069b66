import { Injectable } from '@nestjs/common';
import { GraphReader, GraphWriter, ItemWrite, StoredItem } from '../../../graph/graph-store';
import { Bundle } from '../../../items/bundle';
import { itemHash } from '../../../items/change-detection';
import { joinPath } from '../../../items/identifiers';
import { ItemType } from '../../../items/item-types';
import {
  FinishResult,
  FormatDeclaration,
  FormatParameter,
  FormatReader,
  ImportContext,
  ImportFormat,
  ImportInputError,
  ImportOutcome,
  ImportSource,
  ItemProduced,
  ReadEvent,
} from '../format-reader';
import { singleParameter } from '../format-params';
import { ConceptProblem } from './concept-bundle';
import { UriAffixes, conceptLocalId } from './concept-local-id';
import { ConceptIdentity, conceptBundle, isRefusal, planConcepts } from './concept-plan';
import { ConceptRelations, EdgeMap, conceptRelations } from './concept-relations';
import { selectConcepts } from './concept-selection';
import { resolveRdfFormat } from './rdf-format';
import { readRdfGraph } from './rdf-graph';
import { USED_PREDICATES } from './skos-terms';

type Vocabulary = NonNullable<ImportContext['scope']>;

/** The SKOS import's own parameters (the reference's names). */
interface SkosOptions extends UriAffixes {
  format?: string;
  conceptScheme?: string;
}

const FORMAT = {
  name: 'format',
  description: 'Turtle, N-Triples, N3, RDF/XML (default), JSON-LD, or a media type',
};
const BASE_URI = {
  name: 'baseURI',
  description: 'URI prefix removed from concept URIs to make their local ids',
};
const SUFFIX = {
  name: 'suffix',
  description: 'URI suffix removed from concept URIs to make their local ids',
};
const CONCEPT_SCHEME = {
  name: 'concept-scheme',
  description: 'import only the concepts in this scheme (URI)',
};
const SKOS_PARAMETERS: readonly FormatParameter[] = [FORMAT, BASE_URI, SUFFIX, CONCEPT_SCHEME];

function skosOptions(query: ImportContext['params']['query']): SkosOptions {
  return {
    format: singleParameter(query, FORMAT.name),
    baseURI: singleParameter(query, BASE_URI.name),
    suffix: singleParameter(query, SUFFIX.name),
    conceptScheme: singleParameter(query, CONCEPT_SCHEME.name),
  };
}

function vocabularyOf(context: ImportContext): Vocabulary {
  if (context.scope === undefined) {
    throw new ImportInputError('A SKOS import needs a vocabulary: give its id as the scope parameter');
  }
  return context.scope;
}

/** The ids among `ids` of concepts already in the vocabulary. */
async function conceptsInVocabulary(
  store: GraphReader,
  vocabularyId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const items = await store.getItems(ids);
  return new Set(
    [...items]
      .filter(
        ([, item]) =>
          item.bundle.type === 'CvocConcept' && item.edges.inAuthoritativeSet?.includes(vocabularyId),
      )
      .map(([id]) => id),
  );
}

function sorted(ids: ReadonlySet<string> | undefined): string[] {
  return [...(ids ?? [])].sort();
}

function write(bundle: Bundle, vocabulary: Vocabulary, relations: ConceptRelations): ItemProduced['write'] {
  return {
    bundle,
    edges: {
      inAuthoritativeSet: [vocabulary.bundle.id],
      hasPermissionScope: [vocabulary.bundle.id],
      narrower: sorted(relations.narrower.get(bundle.id)),
      related: sorted(relations.related.get(bundle.id)),
    },
  };
}

/** Concepts outside the file with a `narrower` edge to one of `ids` (concepts it had before). */
async function outsideSourcesOf(
  ids: readonly string[],
  inFile: ReadonlySet<string>,
  store: GraphReader,
): Promise<string[]> {
  const sources = await Promise.all(ids.map((id) => store.incoming(id, 'narrower')));
  return sources.flat().filter((source) => !inFile.has(source));
}

/**
 * New `narrower` edges for concepts outside the file: their edges to concepts outside it stay,
 * those to the file's concepts become what the file states. Unchanged concepts are not written.
 */
function outsideNarrowerWrites(
  outside: ReadonlyMap<string, StoredItem>,
  wanted: EdgeMap,
  inFile: ReadonlySet<string>,
): ItemWrite[] {
  return [...outside].flatMap(([id, item]) => {
    const current = sorted(new Set(item.edges.narrower));
    const next = sorted(new Set([...current.filter((to) => !inFile.has(to)), ...(wanted.get(id) ?? [])]));
    const unchanged = next.length === current.length && next.every((to, index) => to === current[index]);
    // The content hash alone: it matches no import's hash of content and edges, so whatever next
    // imports the concept compares its edges afresh.
    return unchanged ? [] : [{ bundle: item.bundle, hash: itemHash(item.bundle), edges: { narrower: next } }];
  });
}

function rejected(tag: string, uri: string, problem: ConceptProblem): ReadEvent {
  return { kind: 'invalid', tag, key: uri, message: `Concept ${uri}: ${problem.field}: ${problem.message}` };
}

export const SKOS_FORMAT: FormatDeclaration = {
  name: 'skos',
  summary: 'a SKOS vocabulary in any RDF syntax: one concept per skos:Concept, into a vocabulary',
  input: 'raw',
  parameters: SKOS_PARAMETERS,
};

/**
 * `POST /import/skos`: a SKOS vocabulary in any RDF syntax into a `CvocVocabulary`, as the
 * reference's `JenaSkosImporter`: one `CvocConcept` per `skos:Concept`, one description per
 * `prefLabel` language, `broader`/`narrower`/`related` as edges kept in step with the file.
 */
@Injectable()
@ImportFormat()
export class SkosReader implements FormatReader {
  readonly name = SKOS_FORMAT.name;
  readonly classNames = [
    'skos',
    'SkosImporter',
    'JenaSkosImporter',
    'eu.ehri.project.importers.cvoc.SkosImporter',
    'eu.ehri.project.importers.cvoc.JenaSkosImporter',
  ];
  readonly scopeTypes: readonly ItemType[] = ['CvocVocabulary'];
  readonly input = SKOS_FORMAT.input;
  readonly descriptionUpdate = 'replace';
  readonly scopeRequired = true;

  /** Per import: edges the file implies from concepts it does not contain, written by `finish`. */
  private readonly narrowerFromOutside = new WeakMap<ImportContext, EdgeMap>();

  async *read(source: ImportSource, context: ImportContext): AsyncIterable<ReadEvent> {
    const vocabulary = vocabularyOf(context);
    const options = skosOptions(context.params.query);
    const format = resolveRdfFormat(options.format, source.contentType);
    const graph = await readRdfGraph(source, format, USED_PREDICATES, options.baseURI);

    const defaultLang = context.params.lang;
    const identify = (uri: string): ConceptIdentity | undefined => {
      const localId = conceptLocalId(uri, options);
      return localId === '' ? undefined : { localId, id: joinPath([...vocabulary.identifiers, localId]) };
    };
    const entries = planConcepts(graph, selectConcepts(graph, options.conceptScheme), identify, defaultLang);
    const planned = new Map(entries.flatMap((entry) => (isRefusal(entry) ? [] : [[entry.uri, entry.id]])));
    const relations = await conceptRelations(
      graph,
      planned,
      (uri) => identify(uri)?.id,
      (ids) => conceptsInVocabulary(context.store, vocabulary.bundle.id, ids),
    );
    this.narrowerFromOutside.set(context, relations.narrowerFromOutside);

    // Bundles are built one at a time as the run takes them, so that they are never all in memory.
    for (const entry of entries) {
      yield isRefusal(entry)
        ? rejected(source.tag, entry.uri, entry.problem)
        : {
            kind: 'item',
            tag: source.tag,
            write: write(conceptBundle(graph, entry, defaultLang), vocabulary, relations),
          };
    }
  }

  /**
   * Re-points the `narrower` edges of concepts outside the file that the file names as broader
   * of its concepts: adds the new ones and drops those to the file's concepts that it no longer
   * states.
   */
  async finish(store: GraphWriter, outcome: ImportOutcome, context: ImportContext): Promise<FinishResult> {
    const wanted = this.narrowerFromOutside.get(context) ?? new Map<string, Set<string>>();
    this.narrowerFromOutside.delete(context);
    const stale = await outsideSourcesOf([...outcome.updated, ...outcome.unchanged], outcome.produced, store);
    const sources = [...new Set([...wanted.keys(), ...stale])];
    if (sources.length === 0) return {};
    const writes = outsideNarrowerWrites(await store.getItems(sources), wanted, outcome.produced);
    if (writes.length > 0) await store.putItems(writes);
    return { touched: writes.map(({ bundle }) => bundle.id) };
  }
}

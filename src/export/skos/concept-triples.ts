import { Bundle, Props } from '../../items/bundle';
import { IDENTIFIER, LANGUAGE_CODE, NAME, URI } from '../../items/ontology';
import {
  CONCEPT_FIELDS,
  LANGUAGE_FIELDS,
  PREF_LABEL,
  RDF_TYPE,
  SKOS_BROADER,
  SKOS_CONCEPT,
  SKOS_HAS_TOP_CONCEPT,
  SKOS_IN_SCHEME,
  SKOS_NARROWER,
  SKOS_RELATED,
  SKOS_TOP_CONCEPT_OF,
  UNKNOWN_RELATIONS,
} from '../../import/formats/skos/skos-terms';
import { iso6391Code } from '../languages';

/** An RDF object: an IRI, or a literal with its language tag. */
export type RdfObject = { iri: string } | { literal: string; language?: string };

export interface Triple {
  subject: string;
  predicate: string;
  object: RdfObject;
}

/** The triples about one subject, written together (RDF/XML and JSON-LD group them). */
export interface Statements {
  subject: string;
  triples: Triple[];
}

const SKOS_CONCEPT_SCHEME = 'http://www.w3.org/2004/02/skos/core#ConceptScheme';
const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';
/** Concept fields whose values an import took from resources as often as from literals. */
const RESOURCE_FIELDS = new Set(['url', 'person', 'place', 'seeAlso']);
/** Unknown relations the concept's own fields already write (`sem:hasActor`, `sem:hasPlace`). */
const WRITTEN_AS_FIELDS = new Set(['sem:person', 'sem:place']);
const ABSOLUTE_IRI = /^[a-z][a-z0-9+.-]*:[^\s<>"{}|\\^`]+$/i;

function texts(value: Props[string] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** A description's language as a tag: `en`, or `sr-latn` with the script its identifier holds. */
function languageTag(description: Bundle): string | undefined {
  const code = description.data[LANGUAGE_CODE];
  if (typeof code !== 'string') return undefined;
  const script = description.data[IDENTIFIER];
  return typeof script === 'string' ? `${iso6391Code(code)}-${script}` : iso6391Code(code);
}

/** The vocabulary as a concept scheme, with its name as the reference writes it. */
export function schemeStatements(schemeUri: string, vocabulary: Bundle): Statements {
  const triples: Triple[] = [
    { subject: schemeUri, predicate: RDF_TYPE, object: { iri: SKOS_CONCEPT_SCHEME } },
  ];
  for (const name of texts(vocabulary.data[NAME])) {
    triples.push({ subject: schemeUri, predicate: DC_TITLE, object: { literal: name } });
  }
  return { subject: schemeUri, triples };
}

/** What the triples of one concept refer to besides the concept. */
export interface ConceptContext {
  schemeUri: string;
  /** The URI of a concept by id (its stored `uri`, or one made from the vocabulary's). */
  uriOf(id: string): string | undefined;
  /** Ids of the concepts with a `narrower` edge to this one. */
  broader: readonly string[];
}

/**
 * One concept as SKOS, as the reference's `JenaSkosExporter` writes it and the SKOS import reads
 * it back: labels and notes in each description's language, the concept's own fields, the
 * relations the import kept as unknown properties, and its broader, narrower and related concepts
 * (a concept with no broader one is a top concept of the scheme).
 */
export function conceptStatements(
  concept: Bundle,
  edges: Record<string, string[] | undefined>,
  context: ConceptContext,
): Statements[] {
  const subject = context.uriOf(concept.id) ?? concept.id;
  const triples: Triple[] = [];
  const add = (predicate: string, object: RdfObject) => triples.push({ subject, predicate, object });
  add(RDF_TYPE, { iri: SKOS_CONCEPT });
  add(SKOS_IN_SCHEME, { iri: context.schemeUri });
  const unknowns = new Set<string>();
  for (const description of concept.relations.describes ?? []) {
    const language = languageTag(description);
    for (const name of texts(description.data[NAME])) add(PREF_LABEL[0], { literal: name, language });
    for (const [field, predicates] of Object.entries(LANGUAGE_FIELDS)) {
      for (const text of texts(description.data[field])) add(predicates[0], { literal: text, language });
    }
    for (const unknown of description.relations.hasUnknownProperty ?? []) {
      for (const [key, value] of Object.entries(unknown.data)) {
        const predicate = UNKNOWN_RELATIONS[key];
        const entry = `${key}\u0000${String(value)}`;
        if (predicate === undefined || WRITTEN_AS_FIELDS.has(key) || unknowns.has(entry)) continue;
        unknowns.add(entry);
        // As the reference writes them: literals, which the import keeps as the same text.
        add(predicate, { literal: String(value) });
      }
    }
  }
  for (const [field, predicate] of Object.entries(CONCEPT_FIELDS)) {
    for (const text of texts(concept.data[field])) {
      add(
        predicate,
        RESOURCE_FIELDS.has(field) && ABSOLUTE_IRI.test(text) ? { iri: text } : { literal: text },
      );
    }
  }
  const related = (ids: readonly string[] | undefined, predicate: string) => {
    for (const id of ids ?? []) {
      const uri = context.uriOf(id);
      if (uri !== undefined) add(predicate, { iri: uri });
    }
  };
  related(context.broader, SKOS_BROADER);
  related(edges.narrower, SKOS_NARROWER);
  related(edges.related, SKOS_RELATED);
  const statements: Statements[] = [{ subject, triples }];
  if (context.broader.length === 0) {
    add(SKOS_TOP_CONCEPT_OF, { iri: context.schemeUri });
    statements.push({
      subject: context.schemeUri,
      triples: [{ subject: context.schemeUri, predicate: SKOS_HAS_TOP_CONCEPT, object: { iri: subject } }],
    });
  }
  return statements;
}

/** The URI a concept has when it was not imported from one: the vocabulary's, then its identifier. */
export function conceptUri(concept: Bundle, vocabularyUri: string): string {
  const uri = concept.data[URI];
  if (typeof uri === 'string' && uri !== '') return uri;
  return `${vocabularyUri}/${encodeURIComponent(String(concept.data[IDENTIFIER] ?? concept.id))}`;
}

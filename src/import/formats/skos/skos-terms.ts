/**
 * The RDF terms the SKOS reader understands, and how each maps onto a concept, as in the
 * reference's `SkosRDFVocabulary`. Predicates not named here are dropped while parsing.
 */

const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const SKOS_XL = 'http://www.w3.org/2008/05/skos-xl#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const OWL = 'http://www.w3.org/2002/07/owl#';
const GEO = 'http://www.w3.org/2003/01/geo/wgs84_pos#';
const FOAF = 'http://xmlns.com/foaf/0.1/';
const SEM = 'http://semanticweb.cs.vu.nl/2009/11/sem/';

export const RDF_TYPE = `${RDF}type`;
export const RDF_VALUE = `${RDF}value`;
export const SKOS_CONCEPT = `${SKOS}Concept`;
export const SKOS_IN_SCHEME = `${SKOS}inScheme`;
export const SKOS_TOP_CONCEPT_OF = `${SKOS}topConceptOf`;
export const SKOS_HAS_TOP_CONCEPT = `${SKOS}hasTopConcept`;
export const SKOS_BROADER = `${SKOS}broader`;
export const SKOS_NARROWER = `${SKOS}narrower`;
export const SKOS_RELATED = `${SKOS}related`;
export const SKOS_XL_LITERAL_FORM = `${SKOS_XL}literalForm`;

/**
 * Label properties and their SKOS-XL counterparts, which the reference reads as the same property
 * (its model declares `skosxl:prefLabel rdfs:subPropertyOf skos:prefLabel`, …).
 */
export const PREF_LABEL = [`${SKOS}prefLabel`, `${SKOS_XL}prefLabel`];
export const ALT_LABEL = [`${SKOS}altLabel`, `${SKOS_XL}altLabel`];
const HIDDEN_LABEL = [`${SKOS}hiddenLabel`, `${SKOS_XL}hiddenLabel`];

/** Description fields: the values in the description's language, sorted. */
export const LANGUAGE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  altLabel: ALT_LABEL,
  hiddenLabel: HIDDEN_LABEL,
  definition: [`${SKOS}definition`],
  note: [`${SKOS}note`],
  changeNote: [`${SKOS}changeNote`],
  editorialNote: [`${SKOS}editorialNote`],
  historyNote: [`${SKOS}historyNote`],
  scopeNote: [`${SKOS}scopeNote`, `${RDFS}comment`],
};

/** The `geo:lat_long` field: one literal `lat,long` split into the two concept fields. */
export const GEO_LAT_LONG = `${GEO}lat_long`;

/** Concept fields, language-agnostic: literals by their text, resources by their IRI. */
export const CONCEPT_FIELDS: Readonly<Record<string, string>> = {
  latitude: `${GEO}lat`,
  longitude: `${GEO}long`,
  url: `${FOAF}isPrimaryTopicOf`,
  date: `${SEM}hasTime`,
  person: `${SEM}hasActor`,
  place: `${SEM}hasPlace`,
  seeAlso: `${RDFS}seeAlso`,
};

/**
 * Relations the reference keeps as unknown properties of every description, keyed by the
 * prefixed name. Literal values are always kept; resources only for the `skos:` and `sem:` ones.
 */
export const UNKNOWN_RELATIONS: Readonly<Record<string, string>> = {
  'owl:sameAs': `${OWL}sameAs`,
  'skos:exactMatch': `${SKOS}exactMatch`,
  'skos:closeMatch': `${SKOS}closeMatch`,
  'skos:broadMatch': `${SKOS}broadMatch`,
  'skos:relatedMatch': `${SKOS}relatedMatch`,
  'sem:person': `${SEM}hasActor`,
  'sem:place': `${SEM}hasPlace`,
};

export const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
export const RDF_LANG_STRING = `${RDF}langString`;

/** Every predicate the reader looks at; the triple index keeps only these. */
export const USED_PREDICATES: ReadonlySet<string> = new Set([
  RDF_TYPE,
  RDF_VALUE,
  SKOS_IN_SCHEME,
  SKOS_TOP_CONCEPT_OF,
  SKOS_HAS_TOP_CONCEPT,
  SKOS_BROADER,
  SKOS_NARROWER,
  SKOS_RELATED,
  SKOS_XL_LITERAL_FORM,
  GEO_LAT_LONG,
  ...PREF_LABEL,
  ...Object.values(LANGUAGE_FIELDS).flat(),
  ...Object.values(CONCEPT_FIELDS),
  ...Object.values(UNKNOWN_RELATIONS),
]);

import { Bundle, Props, Scalar } from '../../../items/bundle';
import { descriptionId } from '../../../items/identifiers';
import { toLanguageCode } from '../../../items/languages';
import { IDENTIFIER, LANGUAGE_CODE, NAME, URI } from '../../../items/ontology';
import { RdfGraph, RdfLiteral, RdfTerm, resourceKey } from './rdf-graph';
import {
  ALT_LABEL,
  CONCEPT_FIELDS,
  GEO_LAT_LONG,
  LANGUAGE_FIELDS,
  PREF_LABEL,
  RDF_LANG_STRING,
  RDF_VALUE,
  SKOS_XL_LITERAL_FORM,
  UNKNOWN_RELATIONS,
  XSD_STRING,
} from './skos-terms';

/** A concept that cannot be imported: the field at fault and why. */
export class ConceptProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConceptProblem';
  }
}

/** A text value with its (lower-cased, possibly empty) language tag. */
interface TaggedText {
  text: string;
  tag: string;
}

/** A description's language: the ISO 639-2/T code and the script subtag that tells apart two. */
interface DescriptionLanguage {
  code: string;
  script?: string;
}

/**
 * The texts of `predicates`: literals as they are; a resource (a SKOS-XL label, a reified note)
 * by its `skosxl:literalForm` or else its `rdf:value`; resources with neither are skipped.
 */
function textsOf(graph: RdfGraph, subject: string, predicates: readonly string[]): TaggedText[] {
  return graph.objects(subject, predicates).flatMap((object) => {
    const literal = isLiteral(object) ? object : reifiedLiteral(graph, object);
    return literal === undefined ? [] : [{ text: literal.value, tag: literal.language }];
  });
}

function isLiteral(term: RdfTerm): term is RdfLiteral {
  return term.kind === 'literal';
}

function reifiedLiteral(graph: RdfGraph, resource: RdfTerm): RdfLiteral | undefined {
  const key = resourceKey(resource);
  if (key === undefined) return undefined;
  return [SKOS_XL_LITERAL_FORM, RDF_VALUE]
    .map((predicate) => graph.objects(key, predicate).find(isLiteral))
    .find((literal) => literal !== undefined);
}

/** `en` → `eng`; `sr-Latn` → `srp` with script `latn`; no tag → the import's default language. */
function languageOf(tag: string, defaultLang: string): DescriptionLanguage {
  const separator = tag.indexOf('-');
  const primary = (separator < 0 ? tag : tag.slice(0, separator)).trim();
  const script = separator < 0 ? '' : tag.slice(separator + 1).trim();
  const code = primary === '' ? defaultLang : (toLanguageCode(primary) ?? primary);
  return script === '' ? { code } : { code, script };
}

/** Literal values as the reference's Jena prints them: `text`, `text@lang` or `text^^datatype`. */
function literalText(term: RdfLiteral): string {
  if (term.language !== '') return `${term.value}@${term.language}`;
  if (term.datatype === '' || term.datatype === XSD_STRING || term.datatype === RDF_LANG_STRING) {
    return term.value;
  }
  return `${term.value}^^${term.datatype}`;
}

function addValue(data: Props, field: string, value: Scalar): void {
  const current = data[field];
  if (current === undefined) data[field] = value;
  else data[field] = Array.isArray(current) ? [...current, value] : [current, value];
}

/** The concept's own fields: coordinates, URLs, `seeAlso`, event data. */
export function conceptData(graph: RdfGraph, uri: string, localId: string): Props {
  const data: Props = { [IDENTIFIER]: localId, [URI]: uri };
  for (const [field, predicate] of Object.entries(CONCEPT_FIELDS)) {
    for (const object of graph.objects(uri, predicate)) {
      if (object.kind !== 'blank') addValue(data, field, object.value);
    }
  }
  for (const object of graph.objects(uri, GEO_LAT_LONG)) {
    const [latitude, longitude] = object.kind === 'literal' ? object.value.split(',') : [];
    if (longitude !== undefined) Object.assign(data, { latitude, longitude });
  }
  return data;
}

/**
 * One unknown property per value of the relations the reference keeps that way (`owl:sameAs`
 * literals, unresolved `skos:exactMatch` targets, …).
 */
function unknownRelations(graph: RdfGraph, uri: string): Props[] {
  return Object.entries(UNKNOWN_RELATIONS).flatMap(([key, predicate]) =>
    graph.objects(uri, predicate).flatMap((object): Props[] => {
      if (object.kind === 'literal') return [{ [key]: literalText(object) }];
      const keptAsResource = object.kind === 'iri' && (key.startsWith('skos:') || key.startsWith('sem:'));
      return keptAsResource ? [{ [key]: object.value }] : [];
    }),
  );
}

/** A description language as a key: `eng`, or `srp-latn` with a script subtag. */
function describeLanguage({ code, script }: DescriptionLanguage): string {
  return script === undefined ? code : `${code}-${script}`;
}

/**
 * The concept's language-bound fields (alternative labels, notes, …), grouped by language, each
 * field's values sorted, as the reference sorts them for stable round trips.
 */
function fieldsByLanguage(graph: RdfGraph, uri: string, defaultLang: string): Map<string, Props> {
  const byLanguage = new Map<string, Record<string, string[]>>();
  for (const [field, predicates] of Object.entries(LANGUAGE_FIELDS)) {
    for (const { text, tag } of textsOf(graph, uri, predicates)) {
      const language = describeLanguage(languageOf(tag, defaultLang));
      let fields = byLanguage.get(language);
      if (fields === undefined) {
        fields = {};
        byLanguage.set(language, fields);
      }
      (fields[field] ??= []).push(text);
    }
  }
  for (const fields of byLanguage.values()) for (const values of Object.values(fields)) values.sort();
  return byLanguage;
}

/** A preferred label: the name of the description in its language. */
export interface PrefLabel {
  text: string;
  language: DescriptionLanguage;
  /** The id of the description it names. */
  descriptionId: string;
}

/**
 * The concept's preferred labels, at most one per language (and script subtag): a second label
 * in a language would be a second description with the same id, which the concept cannot have.
 */
export function prefLabels(graph: RdfGraph, uri: string, itemId: string, defaultLang: string): PrefLabel[] {
  const seen = new Map<string, string>();
  return textsOf(graph, uri, PREF_LABEL).map(({ text, tag }) => {
    const language = languageOf(tag, defaultLang);
    const id = descriptionId(itemId, language.code, language.script);
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      throw new ConceptProblem(
        'prefLabel',
        `more than one prefLabel in language ${describeLanguage(language)}: "${earlier}" and "${text}"`,
      );
    }
    seen.set(id, text);
    return { text, language, descriptionId: id };
  });
}

/**
 * The concept's descriptions, one per preferred label, each with that language's labels and
 * notes and the concept's unknown properties. As in the reference, a concept with a single
 * description gets every alternative label, whatever its language.
 */
export function conceptDescriptions(
  graph: RdfGraph,
  uri: string,
  labels: readonly PrefLabel[],
  defaultLang: string,
): Bundle[] {
  const unknowns = unknownRelations(graph, uri);
  const fields = fieldsByLanguage(graph, uri, defaultLang);
  const descriptions = labels.map(({ text, language, descriptionId: id }): Bundle => {
    const data: Props = {
      [NAME]: text,
      [LANGUAGE_CODE]: language.code,
      ...(language.script === undefined ? {} : { [IDENTIFIER]: language.script }),
      ...fields.get(describeLanguage(language)),
    };
    const hasUnknownProperty = unknowns.map((unknown, index): Bundle => ({
      id: `${id}.unknown-${index}`,
      type: 'UnknownProperty',
      data: unknown,
      relations: {},
    }));
    return {
      id,
      type: 'CvocConceptDescription',
      data,
      relations: hasUnknownProperty.length > 0 ? { hasUnknownProperty } : {},
    };
  });
  return descriptions.length === 1 ? [withEveryAltLabel(graph, uri, descriptions[0])] : descriptions;
}

function withEveryAltLabel(graph: RdfGraph, uri: string, description: Bundle): Bundle {
  const every = [...new Set(textsOf(graph, uri, ALT_LABEL).map(({ text }) => text))].sort();
  return every.length === 0
    ? description
    : { ...description, data: { ...description.data, altLabel: every } };
}

import { Bundle, Props } from '../../items/bundle';
import { ISO_639_1_TO_2T } from '../../items/languages-data';
import { toLanguageCode } from '../../items/languages';
import { LocalNames, preferredFirst } from '../../portal/languages';
import { Attributes, startTag, textElement, XSI_NAMESPACE } from './xml-markup';

export const OAI_DC_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
export const OAI_DC_SCHEMA = 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd';
export const DC_NAMESPACE = 'http://purl.org/dc/elements/1.1/';

/**
 * Description fields and the Dublin Core elements they become, in the reference's order
 * (`DublinCore11Exporter`): every value of each is written.
 */
const PROPERTY_ELEMENTS: readonly (readonly [element: string, keys: readonly string[]])[] = [
  ['type', ['typeOfEntity', 'levelOfDescription']],
  ['format', ['extentAndMedium']],
  ['language', ['languageOfMaterial']],
];
/** Text fields, written with the description's language (`xml:lang`). */
const DESCRIPTION_KEYS = [
  'abstract',
  'scopeAndContent',
  'biographicalHistory',
  'history',
  'geoculturalContext',
  'generalContext',
];
/** Access points by type and the element each becomes; other types are left out, as the reference does. */
const ACCESS_POINT_ELEMENTS: Readonly<Record<string, string>> = {
  creator: 'creator',
  subject: 'subject',
  person: 'relation',
  corporateBody: 'relation',
  family: 'relation',
  place: 'coverage',
};

/** Names are given in English, as the reference's `LanguageHelpers` gives them. */
const ENGLISH = new LocalNames('en');
const ISO_639_1_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(ISO_639_1_TO_2T).map(([short, long]) => [long, short]),
);
const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/;

/** What a Dublin Core record is made of: the item, and for a unit the repository that holds it. */
export interface DublinCoreSource {
  item: Bundle;
  holder?: Bundle;
}

function values(props: Props, key: string): string[] {
  const value = props[key];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String).filter((text) => text.trim() !== '');
}

/** The item's description in `language` (an ISO 639 code), else in English, else the first by id. */
export function bestDescription(item: Bundle, language: string | undefined): Bundle | undefined {
  const code = language === undefined ? undefined : toLanguageCode(language);
  const [best] = preferredFirst(
    item.relations.describes ?? [],
    (description) => values(description.data, 'languageCode')[0],
    (description) => description.id,
    { codes: code === undefined ? [] : [code], tag: 'en' },
  );
  return best;
}

function languageName(code: string): string {
  return ENGLISH.language(toLanguageCode(code) ?? code) ?? code;
}

/** `xml:lang` of a description's text: its language's two-letter code where there is one. */
function xmlLang(description: Bundle): Attributes {
  const code = values(description.data, 'languageCode')[0];
  if (code === undefined) return [];
  const tag = ISO_639_1_OF.get(toLanguageCode(code) ?? code) ?? code;
  return LANGUAGE_TAG.test(tag) ? [['xml:lang', tag]] : [];
}

function dates(description: Bundle): string[] {
  return (description.relations.hasDate ?? []).flatMap(({ data }) => {
    const [start] = values(data, 'startDate');
    const [end] = values(data, 'endDate');
    if (start === undefined) return [];
    return [end === undefined ? start : `${start} - ${end}`];
  });
}

/** The elements of the description chosen, as `[element, text, attributes]`, in the reference's order. */
function describedElements(source: DublinCoreSource, description: Bundle, language?: string) {
  const elements: [string, string, Attributes?][] = [];
  for (const name of values(description.data, 'name')) elements.push(['title', name]);
  const publisher = source.holder && bestDescription(source.holder, language);
  for (const name of publisher ? values(publisher.data, 'name') : []) elements.push(['publisher', name]);
  for (const coverage of dates(description)) elements.push(['coverage', coverage]);
  for (const [element, keys] of PROPERTY_ELEMENTS) {
    for (const value of keys.flatMap((key) => values(description.data, key))) {
      elements.push([element, element === 'language' ? languageName(value) : value]);
    }
  }
  const lang = xmlLang(description);
  for (const value of DESCRIPTION_KEYS.flatMap((key) => values(description.data, key))) {
    elements.push(['description', value, lang]);
  }
  for (const { data } of description.relations.relatesTo ?? []) {
    const element = ACCESS_POINT_ELEMENTS[values(data, 'type')[0] ?? ''];
    for (const name of element === undefined ? [] : values(data, 'name')) elements.push([element, name]);
  }
  return elements;
}

/**
 * Items without descriptions name themselves: a country by its code, an authority set or a
 * vocabulary by its own name and description.
 */
function ownElements(item: Bundle): [string, string, Attributes?][] {
  const title =
    item.type === 'Country' ? (ENGLISH.country(item.id) ?? values(item.data, 'name')[0]) : undefined;
  return [
    ...(title === undefined ? values(item.data, 'name') : [title]).map((name): [string, string] => [
      'title',
      name,
    ]),
    ...values(item.data, 'description').map((text): [string, string] => ['description', text]),
  ];
}

/**
 * The item as simple Dublin Core in the OAI-PMH container (`oai_dc:dc`), as the reference's
 * `DublinCore11Exporter` writes it: its local identifier, then the fields of its description in
 * `language` (or the best one there is).
 */
export function dublinCore(source: DublinCoreSource, language?: string): string {
  const { item } = source;
  const description = bestDescription(item, language);
  const elements: [string, string, Attributes?][] = [
    ...values(item.data, 'identifier').map((identifier): [string, string] => ['identifier', identifier]),
    ...(description === undefined ? ownElements(item) : describedElements(source, description, language)),
  ];
  const root = startTag('oai_dc:dc', [
    ['xmlns:oai_dc', OAI_DC_NAMESPACE],
    ['xmlns:dc', DC_NAMESPACE],
    ['xmlns:xsi', XSI_NAMESPACE],
    ['xsi:schemaLocation', `${OAI_DC_NAMESPACE} ${OAI_DC_SCHEMA}`],
  ]);
  const body = elements.map(([element, text, attributes]) => textElement(`dc:${element}`, text, attributes));
  return `${root}${body.join('')}</oai_dc:dc>`;
}

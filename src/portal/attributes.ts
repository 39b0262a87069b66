import { Bundle, Props } from '../items/bundle';
import { toLanguageCode } from '../items/languages';
import { LanguagePreference, LocalNames, preferredFirst } from './languages';
import { PortalType } from './portal-types';

/**
 * The attributes of each portal type, as the reference's API writes them, from an item's bundle.
 * Descriptions come best language first; a type the reference writes one description for (a
 * repository, an agent) takes the best. Attributes with no stored value are left out (lists are
 * empty instead).
 */

/** How a request wants things named: its language preference and names in its language. */
export interface Localisation {
  preference: LanguagePreference;
  names: LocalNames;
}

/** Country report fields, imported with `/import/csv`, served when present. */
const COUNTRY_REPORT_FIELDS = ['abstract', 'history', 'situation', 'summary', 'extensive'] as const;

/**
 * Portal address fields and the stored properties they come from, in order of preference: the
 * reference stores EAG addresses as `street`, `municipality`, `firstdem`, `webpage`, ….
 */
const ADDRESS_TEXT_FIELDS = {
  streetAddress: ['street', 'streetAddress'],
  city: ['municipality', 'city'],
  region: ['firstdem', 'region'],
  postalCode: ['postalCode', 'postalcode'],
  countryCode: ['countryCode'],
} as const;
const ADDRESS_LIST_FIELDS = {
  email: ['email'],
  telephone: ['telephone'],
  fax: ['fax'],
  url: ['webpage', 'url'],
} as const;

/**
 * Repository attributes and the description fields they come from (the reference's ISDIAH names;
 * its `generalContext` is the stored `geoculturalContext`), in the reference's order.
 */
const REPOSITORY_LIST_FIELDS = {
  parallelFormsOfName: 'parallelFormsOfName',
  otherFormsOfName: 'otherFormsOfName',
} as const;
const REPOSITORY_TEXT_FIELDS = {
  history: 'history',
  generalContext: 'geoculturalContext',
  mandates: 'mandates',
  administrativeStructure: 'administrativeStructure',
  buildings: 'buildings',
  holdings: 'holdings',
  findingAids: 'findingAids',
  openingTimes: 'openingTimes',
  conditions: 'conditions',
  accessibility: 'accessibility',
  researchServices: 'researchServices',
  reproductionServices: 'reproductionServices',
} as const;
/** Unit description attributes that follow the title and extent, in the reference's order. */
const UNIT_TEXT_FIELDS = {
  biographicalHistory: 'biographicalHistory',
  archivalHistory: 'archivalHistory',
  acquisition: 'acquisition',
  scopeAndContent: 'scopeAndContent',
  appraisal: 'appraisal',
  accruals: 'accruals',
  systemOfArrangement: 'systemOfArrangement',
} as const;

/** Agent attributes and the description fields they come from (the reference's EAC mapping). */
const AGENT_TEXT_FIELDS = {
  name: 'name',
  datesOfExistence: 'datesOfExistence',
  history: 'biographicalHistory',
  internalStructure: 'structure',
  generalContext: 'generalContext',
} as const;
const AGENT_LIST_FIELDS = {
  otherFormsOfName: 'otherFormsOfName',
  places: 'place',
  legalStatus: 'legalStatus',
  functions: 'functions',
  mandates: 'mandates',
} as const;
/** Concept description attributes: SKOS fields, lists in the reference's answers. */
const CONCEPT_LIST_FIELDS = {
  altLabels: 'altLabel',
  definition: 'definition',
  note: 'note',
  scopeNote: 'scopeNote',
  editorialNote: 'editorialNote',
} as const;

/** A text property; a multivalued one is joined by line breaks rather than losing values. */
function text(props: Props, ...keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = props[key];
    const joined = Array.isArray(value) ? value.map(String).join('\n') : value?.toString();
    if (joined !== undefined && joined !== '') return joined;
  }
  return undefined;
}

function texts(props: Props, ...keys: readonly string[]): string[] {
  for (const key of keys) {
    const value = props[key];
    if (value !== undefined) return (Array.isArray(value) ? value : [value]).map(String);
  }
  return [];
}

/** The item's descriptions of `type`, in the languages the request prefers first (`preferredFirst`). */
function descriptions(bundle: Bundle, type: string, localisation: Localisation): Bundle[] {
  const all = (bundle.relations.describes ?? []).filter((description) => description.type === type);
  return preferredFirst(
    all,
    ({ data }) => text(data, 'languageCode'),
    (description) => description.id,
    localisation.preference,
  );
}

function addressAttributes(address: Props, localisation: Localisation): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [field, keys] of Object.entries(ADDRESS_TEXT_FIELDS)) attributes[field] = text(address, ...keys);
  const code = text(address, 'countryCode');
  attributes.country = code === undefined ? undefined : localisation.names.country(code);
  for (const [field, keys] of Object.entries(ADDRESS_LIST_FIELDS))
    attributes[field] = texts(address, ...keys);
  return attributes;
}

function countryAttributes(bundle: Bundle, localisation: Localisation): Record<string, unknown> {
  const { data } = bundle;
  const attributes: Record<string, unknown> = {
    identifier: text(data, 'identifier'),
    name: localisation.names.country(bundle.id) ?? text(data, 'name'),
  };
  for (const field of COUNTRY_REPORT_FIELDS) attributes[field] = text(data, field);
  return attributes;
}

function repositoryAttributes(bundle: Bundle, localisation: Localisation): Record<string, unknown> {
  const description = descriptions(bundle, 'RepositoryDescription', localisation)[0];
  if (description === undefined) return {};
  const { data } = description;
  const address = description.relations.hasAddress?.[0];
  const attributes: Record<string, unknown> = { name: text(data, 'name') };
  for (const [field, key] of Object.entries(REPOSITORY_LIST_FIELDS)) attributes[field] = texts(data, key);
  attributes.address = address === undefined ? undefined : addressAttributes(address.data, localisation);
  for (const [field, key] of Object.entries(REPOSITORY_TEXT_FIELDS)) attributes[field] = text(data, key);
  return attributes;
}

/** Codes as names in the answer's language; a code with no name is kept as it is. */
function named(codes: string[], name: (code: string) => string | undefined): string[] {
  return codes.map((code) => name(code) ?? code);
}

function languageAttributes(data: Props, localisation: Localisation): Record<string, unknown> {
  const languageCode = text(data, 'languageCode');
  return {
    languageCode,
    language: languageCode === undefined ? undefined : localisation.names.language(languageCode),
  };
}

function unitAttributes(bundle: Bundle, localisation: Localisation): Record<string, unknown> {
  return {
    localId: text(bundle.data, 'identifier'),
    alternateIds: texts(bundle.data, 'otherIdentifiers'),
    descriptions: descriptions(bundle, 'DocumentaryUnitDescription', localisation).map(({ data }) => {
      const description: Record<string, unknown> = {
        localId: text(data, 'identifier'),
        ...languageAttributes(data, localisation),
        name: text(data, 'name'),
        parallelFormsOfName: texts(data, 'parallelFormsOfName'),
        extentAndMedium: text(data, 'extentAndMedium'),
        unitDates: texts(data, 'unitDates'),
      };
      for (const [field, key] of Object.entries(UNIT_TEXT_FIELDS)) description[field] = text(data, key);
      description.languageOfMaterials = named(texts(data, 'languageOfMaterial'), (code) =>
        localisation.names.language(toLanguageCode(code) ?? code),
      );
      description.scriptOfMaterials = named(texts(data, 'scriptOfMaterial'), (code) =>
        localisation.names.script(code),
      );
      return description;
    }),
  };
}

function agentAttributes(bundle: Bundle, localisation: Localisation): Record<string, unknown> {
  const attributes: Record<string, unknown> = { localId: text(bundle.data, 'identifier') };
  const description = descriptions(bundle, 'HistoricalAgentDescription', localisation)[0];
  if (description === undefined) return attributes;
  const { data } = description;
  for (const [field, key] of Object.entries(AGENT_TEXT_FIELDS)) attributes[field] = text(data, key);
  for (const [field, key] of Object.entries(AGENT_LIST_FIELDS)) attributes[field] = texts(data, key);
  return { ...attributes, ...languageAttributes(data, localisation) };
}

/**
 * The item's point, as the reference writes it (`GeoPoint`): latitude first, then longitude, not
 * GeoJSON's order. Absent unless both are numbers.
 */
function geoPoint(data: Props): { type: 'Point'; coordinates: [number, number] } | undefined {
  const latitude = coordinate(data, 'latitude');
  const longitude = coordinate(data, 'longitude');
  if (latitude === undefined || longitude === undefined) return undefined;
  return { type: 'Point', coordinates: [latitude, longitude] };
}

/** The first value of a coordinate field as a number; undefined when blank or not a number. */
function coordinate(data: Props, key: string): number | undefined {
  const value = texts(data, key)[0]?.trim();
  const number = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(number) ? number : undefined;
}

function conceptAttributes(bundle: Bundle, localisation: Localisation): Record<string, unknown> {
  return {
    localId: text(bundle.data, 'identifier'),
    uri: text(bundle.data, 'uri', 'url'),
    seeAlso: texts(bundle.data, 'seeAlso'),
    descriptions: descriptions(bundle, 'CvocConceptDescription', localisation).map(({ data }) => {
      const description: Record<string, unknown> = {
        ...languageAttributes(data, localisation),
        prefLabel: text(data, 'name'),
      };
      for (const [field, key] of Object.entries(CONCEPT_LIST_FIELDS)) description[field] = texts(data, key);
      return description;
    }),
    geo: geoPoint(bundle.data),
  };
}

/** An authority set or vocabulary: what it is called. */
function setAttributes(bundle: Bundle): Record<string, unknown> {
  return {
    identifier: text(bundle.data, 'identifier'),
    name: text(bundle.data, 'name'),
    description: text(bundle.data, 'description'),
  };
}

export function attributesOf(
  type: PortalType,
  bundle: Bundle,
  localisation: Localisation,
): Record<string, unknown> {
  switch (type) {
    case 'Country':
      return countryAttributes(bundle, localisation);
    case 'Repository':
      return repositoryAttributes(bundle, localisation);
    case 'DocumentaryUnit':
      return unitAttributes(bundle, localisation);
    case 'HistoricalAgent':
      return agentAttributes(bundle, localisation);
    case 'CvocConcept':
      return conceptAttributes(bundle, localisation);
    case 'AuthoritativeSet':
    case 'CvocVocabulary':
      return setAttributes(bundle);
  }
}

import type { SchemaObject } from '@nestjs/swagger';
import { PortalType } from './portal-types';

/**
 * The OpenAPI schemas of each portal type's attributes, written out as the reference portal's
 * clients read them (see portal-schemas.openapi.ts, which builds the resource objects on them).
 */
export const LINK: SchemaObject = { type: 'string', format: 'uri' };

export function text(description: string): SchemaObject {
  return { type: 'string', description };
}

export function texts(description: string): SchemaObject {
  return { type: 'array', items: { type: 'string' }, description };
}

export function attributes(description: string, properties: Record<string, SchemaObject>): SchemaObject {
  return { type: 'object', description, additionalProperties: false, properties };
}

const LANGUAGE: Record<string, SchemaObject> = {
  languageCode: text('ISO 639-2 code of the description language, e.g. deu'),
  language: text('Name of that language, in the language of the answer (Content-Language)'),
};

const ADDRESS: SchemaObject = attributes('The first address of its description', {
  streetAddress: text('Street and number'),
  city: text('City or municipality'),
  region: text('Region, state or province'),
  postalCode: text('Postal code'),
  countryCode: text('ISO 3166-1 alpha-2 code'),
  country: text('Name of the country, in the language of the answer'),
  email: texts('E-mail addresses'),
  telephone: texts('Telephone numbers'),
  fax: texts('Fax numbers'),
  url: texts('Web pages'),
});

const UNIT_DESCRIPTION: SchemaObject = attributes('One description of the unit, in one language', {
  localId: text('Identifier of the description, when its source gives one'),
  ...LANGUAGE,
  name: text('Title (unittitle)'),
  parallelFormsOfName: texts('Titles in other languages or scripts'),
  extentAndMedium: text('Extent and medium (physdesc)'),
  unitDates: texts('Dates as written (unitdate)'),
  biographicalHistory: text('Administrative or biographical history (bioghist)'),
  archivalHistory: text('Archival history (custodhist)'),
  acquisition: text('Immediate source of acquisition (acqinfo)'),
  scopeAndContent: text('Scope and content (scopecontent)'),
  appraisal: text('Appraisal, destruction and scheduling (appraisal)'),
  accruals: text('Accruals (accruals)'),
  systemOfArrangement: text('System of arrangement (arrangement)'),
  languageOfMaterials: texts('Languages of the material, named in the language of the answer'),
  scriptOfMaterials: texts('Scripts of the material, named in the language of the answer'),
});

const CONCEPT_DESCRIPTION: SchemaObject = attributes('One description of the concept, in one language', {
  ...LANGUAGE,
  prefLabel: text('Preferred label (skos:prefLabel)'),
  altLabels: texts('Alternative labels (skos:altLabel)'),
  definition: texts('Definitions (skos:definition)'),
  note: texts('Notes (skos:note)'),
  scopeNote: texts('Scope notes (skos:scopeNote)'),
  editorialNote: texts('Editorial notes (skos:editorialNote)'),
});

const SET_ATTRIBUTES = {
  identifier: text('Local identifier'),
  name: text('Name'),
  description: text('What it holds'),
};

export const ATTRIBUTES: Record<PortalType, SchemaObject> = {
  Country: attributes('A country and its report fields (imported with /import/csv)', {
    identifier: text('ISO 3166-1 alpha-2 code, lower case'),
    name: text('Name of the country, in the language of the answer'),
    abstract: text('Report: abstract'),
    history: text('Report: history'),
    situation: text('Report: archival situation'),
    summary: text('Report: summary'),
    extensive: text('Report: extensive summary'),
  }),
  Repository: attributes('An archive, from its best description for Accept-Language', {
    name: text('Authorised form of its name'),
    parallelFormsOfName: texts('Its name in other languages or scripts'),
    otherFormsOfName: texts('Other forms of its name'),
    address: ADDRESS,
    history: text('History of the institution (ISDIAH 5.3.1)'),
    generalContext: text('Geographical and cultural context (ISDIAH 5.3.2)'),
    mandates: text('Mandates and sources of authority (ISDIAH 5.3.3)'),
    administrativeStructure: text('Administrative structure (ISDIAH 5.3.4)'),
    buildings: text('Buildings (ISDIAH 5.3.6)'),
    holdings: text('Archival and other holdings (ISDIAH 5.3.7)'),
    findingAids: text('Finding aids, guides and publications (ISDIAH 5.3.8)'),
    openingTimes: text('Opening times (ISDIAH 5.4.1)'),
    conditions: text('Conditions and requirements for access (ISDIAH 5.4.2)'),
    accessibility: text('Accessibility (ISDIAH 5.4.3)'),
    researchServices: text('Research services (ISDIAH 5.5.1)'),
    reproductionServices: text('Reproduction services (ISDIAH 5.5.2)'),
  }),
  DocumentaryUnit: attributes('A unit of description (fonds, series, file, item …)', {
    localId: text('Its identifier within its parent (unitid)'),
    alternateIds: texts('Other identifiers'),
    descriptions: {
      type: 'array',
      items: UNIT_DESCRIPTION,
      description: 'Its descriptions, in the languages of Accept-Language first',
    },
  }),
  HistoricalAgent: attributes('A person, family or corporate body, from its best description', {
    localId: text('Its identifier within its authority set'),
    name: text('Authorised form of the name'),
    otherFormsOfName: texts('Other forms of the name'),
    datesOfExistence: text('Dates of existence'),
    history: text('History or biography'),
    places: texts('Places'),
    legalStatus: texts('Legal status'),
    functions: texts('Functions, occupations and activities'),
    mandates: texts('Mandates and sources of authority'),
    internalStructure: text('Internal structures or genealogy'),
    generalContext: text('General context'),
    ...LANGUAGE,
  }),
  CvocConcept: attributes('A concept of a vocabulary (SKOS)', {
    localId: text('Its identifier within its vocabulary'),
    uri: text('Its URI'),
    seeAlso: texts('Related resources (rdfs:seeAlso)'),
    descriptions: {
      type: 'array',
      items: CONCEPT_DESCRIPTION,
      description: 'Its descriptions, in the languages of Accept-Language first',
    },
    geo: {
      ...attributes('Its place (geo:lat, geo:long), as the reference writes it: latitude first', {
        type: { type: 'string', enum: ['Point'] },
        coordinates: {
          type: 'array',
          items: { type: 'number' },
          minItems: 2,
          maxItems: 2,
          description: '[latitude, longitude]',
        },
      }),
      required: ['type', 'coordinates'],
    },
  }),
  AuthoritativeSet: attributes('A set of historical agents', SET_ATTRIBUTES),
  CvocVocabulary: attributes('A vocabulary of concepts', SET_ATTRIBUTES),
};

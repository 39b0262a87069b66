import { Bundle, Props } from '../../items/bundle';
import * as schema from './attribute-schemas';
import { Localisation, descriptions, languageAttributes, text, texts } from './attribute-values';
import { portalType } from './portal-type';

/** Concept description attributes: SKOS fields, lists in the reference's answers. */
const LIST_FIELDS = {
  altLabels: 'altLabel',
  definition: 'definition',
  note: 'note',
  scopeNote: 'scopeNote',
  editorialNote: 'editorialNote',
} as const;

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
      for (const [field, key] of Object.entries(LIST_FIELDS)) description[field] = texts(data, key);
      return description;
    }),
    geo: geoPoint(bundle.data),
  };
}

const DESCRIPTION_SCHEMA = schema.attributes('One description of the concept, in one language', {
  ...schema.LANGUAGE,
  prefLabel: schema.text('Preferred label (skos:prefLabel)'),
  altLabels: schema.texts('Alternative labels (skos:altLabel)'),
  definition: schema.texts('Definitions (skos:definition)'),
  note: schema.texts('Notes (skos:note)'),
  scopeNote: schema.texts('Scope notes (skos:scopeNote)'),
  editorialNote: schema.texts('Editorial notes (skos:editorialNote)'),
});

/** A concept of a vocabulary (SKOS); it links the search of what links to it. */
export const CVOC_CONCEPT = portalType({
  type: 'CvocConcept',
  searched: true,
  attributes: conceptAttributes,
  schema: schema.attributes('A concept of a vocabulary (SKOS)', {
    localId: schema.text('Its identifier within its vocabulary'),
    uri: schema.text('Its URI'),
    seeAlso: schema.texts('Related resources (rdfs:seeAlso)'),
    descriptions: {
      type: 'array',
      items: DESCRIPTION_SCHEMA,
      description: 'Its descriptions, in the languages of Accept-Language first',
    },
    geo: {
      ...schema.attributes('Its place (geo:lat, geo:long), as the reference writes it: latitude first', {
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
  relationships: {
    vocabulary: {
      type: 'CvocVocabulary',
      description: 'The vocabulary holding the concept',
      target: (item) => item.stored.edges.inAuthoritativeSet?.[0],
    },
  },
  linksRelated: true,
});

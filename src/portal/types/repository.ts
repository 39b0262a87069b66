import { Bundle, Props } from '../../items/bundle';
import * as schema from './attribute-schemas';
import { Localisation, descriptions, text, texts } from './attribute-values';
import { portalType } from './portal-type';

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
const LIST_FIELDS = {
  parallelFormsOfName: 'parallelFormsOfName',
  otherFormsOfName: 'otherFormsOfName',
} as const;
const TEXT_FIELDS = {
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

function addressAttributes(address: Props, localisation: Localisation): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [field, keys] of Object.entries(ADDRESS_TEXT_FIELDS)) attributes[field] = text(address, ...keys);
  const code = text(address, 'countryCode');
  attributes.country = code === undefined ? undefined : localisation.names.country(code);
  for (const [field, keys] of Object.entries(ADDRESS_LIST_FIELDS))
    attributes[field] = texts(address, ...keys);
  return attributes;
}

/** A repository's attributes come from its one best description, as the reference writes them. */
function repositoryAttributes(bundle: Bundle, localisation: Localisation): Record<string, unknown> {
  const description = descriptions(bundle, 'RepositoryDescription', localisation)[0];
  if (description === undefined) return {};
  const { data } = description;
  const address = description.relations.hasAddress?.[0];
  const attributes: Record<string, unknown> = { name: text(data, 'name') };
  for (const [field, key] of Object.entries(LIST_FIELDS)) attributes[field] = texts(data, key);
  attributes.address = address === undefined ? undefined : addressAttributes(address.data, localisation);
  for (const [field, key] of Object.entries(TEXT_FIELDS)) attributes[field] = text(data, key);
  return attributes;
}

const ADDRESS_SCHEMA = schema.attributes('The first address of its description', {
  streetAddress: schema.text('Street and number'),
  city: schema.text('City or municipality'),
  region: schema.text('Region, state or province'),
  postalCode: schema.text('Postal code'),
  countryCode: schema.text('ISO 3166-1 alpha-2 code'),
  country: schema.text('Name of the country, in the language of the answer'),
  email: schema.texts('E-mail addresses'),
  telephone: schema.texts('Telephone numbers'),
  fax: schema.texts('Fax numbers'),
  url: schema.texts('Web pages'),
});

/** An archive: in its country, searched below it; the `holder` facet names units' repositories. */
export const REPOSITORY = portalType({
  type: 'Repository',
  searched: true,
  attributes: repositoryAttributes,
  schema: schema.attributes('An archive, from its best description for Accept-Language', {
    name: schema.text('Authorised form of its name'),
    parallelFormsOfName: schema.texts('Its name in other languages or scripts'),
    otherFormsOfName: schema.texts('Other forms of its name'),
    address: ADDRESS_SCHEMA,
    history: schema.text('History of the institution (ISDIAH 5.3.1)'),
    generalContext: schema.text('Geographical and cultural context (ISDIAH 5.3.2)'),
    mandates: schema.text('Mandates and sources of authority (ISDIAH 5.3.3)'),
    administrativeStructure: schema.text('Administrative structure (ISDIAH 5.3.4)'),
    buildings: schema.text('Buildings (ISDIAH 5.3.6)'),
    holdings: schema.text('Archival and other holdings (ISDIAH 5.3.7)'),
    findingAids: schema.text('Finding aids, guides and publications (ISDIAH 5.3.8)'),
    openingTimes: schema.text('Opening times (ISDIAH 5.4.1)'),
    conditions: schema.text('Conditions and requirements for access (ISDIAH 5.4.2)'),
    accessibility: schema.text('Accessibility (ISDIAH 5.4.3)'),
    researchServices: schema.text('Research services (ISDIAH 5.5.1)'),
    reproductionServices: schema.text('Reproduction services (ISDIAH 5.5.2)'),
  }),
  relationships: {
    country: {
      type: 'Country',
      description: 'The country of the repository',
      target: (item) => item.stored.edges.hasCountry?.[0],
    },
  },
  textSearchesSubtree: true,
  facets: [
    {
      field: 'holder',
      name: 'Repository',
      key: 'holderId',
      valueName: (value, naming) => naming.itemName(value),
    },
  ],
});

import { StoredItem } from '../graph/graph-store';
import { Bundle, Props } from '../items/bundle';
import { ResourceObject, ToOneRelationship, toOne } from './jsonapi';
import { PortalType } from './portal-types';
import { PortalUrls } from './portal-urls';

/** What a resource object is made from: the stored item and what the store knows around it. */
export interface PortalItem {
  stored: StoredItem;
  type: PortalType;
  /** Number of children in the item's scope (repositories of a country, units of a repository or unit). */
  subitems: number;
  /** For a unit: the repository holding it, directly or through its ancestors. */
  holderId?: string;
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

function descriptions(bundle: Bundle, type: string): Bundle[] {
  return (bundle.relations.describes ?? []).filter((description) => description.type === type);
}

function addressAttributes(address: Props): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [field, keys] of Object.entries(ADDRESS_TEXT_FIELDS)) attributes[field] = text(address, ...keys);
  for (const [field, keys] of Object.entries(ADDRESS_LIST_FIELDS))
    attributes[field] = texts(address, ...keys);
  return attributes;
}

function countryAttributes(data: Props): Record<string, unknown> {
  const attributes: Record<string, unknown> = {
    identifier: text(data, 'identifier'),
    name: text(data, 'name'),
  };
  for (const field of COUNTRY_REPORT_FIELDS) attributes[field] = text(data, field);
  return attributes;
}

function repositoryAttributes(bundle: Bundle): Record<string, unknown> {
  const description = descriptions(bundle, 'RepositoryDescription')[0];
  const address = description?.relations.hasAddress?.[0];
  return {
    name: description === undefined ? undefined : text(description.data, 'name'),
    address: address === undefined ? undefined : addressAttributes(address.data),
  };
}

function unitAttributes(bundle: Bundle): Record<string, unknown> {
  return {
    localId: text(bundle.data, 'identifier'),
    alternateIds: texts(bundle.data, 'otherIdentifiers'),
    descriptions: descriptions(bundle, 'DocumentaryUnitDescription').map(({ data }) => ({
      localId: text(data, 'identifier'),
      languageCode: text(data, 'languageCode'),
      name: text(data, 'name'),
      parallelFormsOfName: texts(data, 'parallelFormsOfName'),
      extentAndMedium: text(data, 'extentAndMedium'),
      acquisition: text(data, 'acquisition'),
      scopeAndContent: text(data, 'scopeAndContent'),
    })),
  };
}

function relationship(type: PortalType, id: string | undefined, urls: PortalUrls): ToOneRelationship {
  return id === undefined ? toOne(undefined) : toOne({ id, type }, urls.item(id));
}

function relationships(item: PortalItem, urls: PortalUrls): Record<string, ToOneRelationship> | undefined {
  const { edges } = item.stored;
  switch (item.type) {
    case 'Country':
      return undefined;
    case 'Repository':
      return { country: relationship('Country', edges.hasCountry?.[0], urls) };
    case 'DocumentaryUnit':
      return {
        holder: relationship('Repository', item.holderId, urls),
        parent: relationship('DocumentaryUnit', edges.childOf?.[0], urls),
      };
  }
}

function attributes(item: PortalItem): Record<string, unknown> {
  const { bundle } = item.stored;
  switch (item.type) {
    case 'Country':
      return countryAttributes(bundle.data);
    case 'Repository':
      return repositoryAttributes(bundle);
    case 'DocumentaryUnit':
      return unitAttributes(bundle);
  }
}

/**
 * The one resource object of an item, whether it is found by search, fetched by id or included.
 * Attributes with no stored value are left out (lists are empty instead). Resource `links` hold
 * only `self`, the one member the JSON:API schema allows there: related items are linked from
 * their relationship (`links.related`) and the item-scoped search from `meta.search`.
 */
export function toResource(item: PortalItem, urls: PortalUrls): ResourceObject {
  const { id } = item.stored.bundle;
  const resource: ResourceObject = {
    id,
    type: item.type,
    attributes: attributes(item),
    links: { self: urls.item(id) },
    meta: { subitems: item.subitems, updated: item.stored.updated, search: urls.itemSearch(id) },
  };
  const related = relationships(item, urls);
  if (related !== undefined) resource.relationships = related;
  return resource;
}

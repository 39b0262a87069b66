import { StoredItem } from '../graph/graph-store';
import { Localisation, attributesOf } from './attributes';
import { ResourceIdentifier, ResourceObject } from './jsonapi';
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

/** The item's relationships by name, each to the one item it names or to none. */
function relatedItems(item: PortalItem): Record<string, ResourceIdentifier | undefined> | undefined {
  const { edges } = item.stored;
  const to = (type: string, id: string | undefined) => (id === undefined ? undefined : { id, type });
  switch (item.type) {
    case 'Repository':
      return { country: to('Country', edges.hasCountry?.[0]) };
    case 'DocumentaryUnit':
      return { holder: to('Repository', item.holderId), parent: to('DocumentaryUnit', edges.childOf?.[0]) };
    case 'HistoricalAgent':
      return { set: to('AuthoritativeSet', edges.inAuthoritativeSet?.[0]) };
    case 'CvocConcept':
      return { vocabulary: to('CvocVocabulary', edges.inAuthoritativeSet?.[0]) };
    default:
      return undefined;
  }
}

/**
 * The one resource object of an item, whether it is found by search, fetched by id or included,
 * as the specification words it: `links` hold `self`, `search` and one URL per relationship that
 * has an item, named like it (and `related` for agents and concepts, as the reference writes); a
 * relationship is `{"data": {id, type}}`, or `null` without one.
 */
export function toResource(item: PortalItem, urls: PortalUrls, localisation: Localisation): ResourceObject {
  const { id } = item.stored.bundle;
  const resource: ResourceObject = {
    id,
    type: item.type,
    attributes: attributesOf(item.type, item.stored.bundle, localisation),
    links: { self: urls.item(id), search: urls.itemSearch(id) },
    meta: { subitems: item.subitems, updated: item.stored.updated },
  };
  // As the reference: agents and concepts lead to what is linked to them (any item's route serves).
  if (item.type === 'HistoricalAgent' || item.type === 'CvocConcept')
    resource.links.related = urls.related(id);
  const related = relatedItems(item);
  if (related === undefined) return resource;
  resource.relationships = {};
  for (const [name, identifier] of Object.entries(related)) {
    if (identifier === undefined) {
      resource.relationships[name] = null;
    } else {
      resource.relationships[name] = { data: identifier, links: { related: urls.item(identifier.id) } };
      resource.links[name] = urls.item(identifier.id);
    }
  }
  return resource;
}

/** The resource with only the attributes `fields` names for its type (sparse fieldsets), if it names any. */
export function withFields(
  resource: ResourceObject,
  fields: Partial<Record<string, string[]>>,
): ResourceObject {
  const kept = fields[resource.type];
  if (kept === undefined) return resource;
  const attributes = Object.fromEntries(
    Object.entries(resource.attributes).filter(([name]) => kept.includes(name)),
  );
  return { ...resource, attributes };
}

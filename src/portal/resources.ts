import { StoredItem } from '../graph/graph-store';
import { ResourceObject } from './jsonapi';
import { PortalType, portalTypeDefinition } from './portal-types';
import { PortalUrls } from './portal-urls';
import { Localisation } from './types';

/** What a resource object is made from: the stored item and what the store knows around it. */
export interface PortalItem {
  stored: StoredItem;
  type: PortalType;
  /** Number of children in the item's scope (repositories of a country, units of a repository or unit). */
  subitems: number;
  /** For a unit: the repository holding it, directly or through its ancestors. */
  holderId?: string;
}

/**
 * The one resource object of an item, whether it is found by search, fetched by id or included,
 * as the specification words it: `links` hold `self`, `search` and one URL per relationship that
 * has an item, named like it (and `related` for the types that link it, agents and concepts, as
 * the reference writes); a relationship is `{"data": {id, type}}`, or `null` without one. What
 * differs by type is its definition's (`types/`).
 */
export function toResource(item: PortalItem, urls: PortalUrls, localisation: Localisation): ResourceObject {
  const definition = portalTypeDefinition(item.type);
  const { id } = item.stored.bundle;
  const resource: ResourceObject = {
    id,
    type: item.type,
    attributes: definition.attributes(item.stored.bundle, localisation),
    links: { self: urls.item(id), search: urls.itemSearch(id) },
    meta: { subitems: item.subitems, updated: item.stored.updated },
  };
  if (definition.linksRelated === true) resource.links.related = urls.related(id);
  if (definition.relationships === undefined) return resource;
  resource.relationships = {};
  for (const [name, relationship] of Object.entries(definition.relationships)) {
    const target = relationship.target(item);
    if (target === undefined) {
      resource.relationships[name] = null;
    } else {
      const data = { id: target, type: relationship.type };
      resource.relationships[name] = { data, links: { related: urls.item(target) } };
      resource.links[name] = urls.item(target);
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

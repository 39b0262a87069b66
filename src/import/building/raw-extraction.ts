import { Bundle, Props } from '../../items/bundle';
import { DependentRelation, DependentType } from '../../items/item-types';
import { IDENTIFIER, MAINTENANCE_EVENT_TYPE, OTHER_IDENTIFIERS } from '../../items/ontology';
import { UNKNOWN_PREFIX } from '../parsing/xml/mapped-xml-handler';
import { storedValue } from './node-properties';
import { RawNode, RawValue } from './raw-node';

/**
 * The reference's `ImportHelpers`: splits a raw node into the item's identifiers, its description,
 * address, unknown properties and maintenance events.
 */

/** The raw field holding an item's local identifier(s). */
export const OBJECT_IDENTIFIER = 'objectIdentifier';
/** The raw field holding a description's identifier. */
export const DESCRIPTION_IDENTIFIER = 'descriptionIdentifier';
export const MAINTENANCE_EVENT = 'MaintenanceEvent';
export const ACCESS_POINT = 'AccessPoint';
const ADDRESS_PREFIX = 'address/';
const IGNORED_PREFIX = 'IGNORE';
/** Every imported description records how it came to be. */
const CREATION_PROCESS = 'creationProcess';
const IMPORTED = 'IMPORT';

/** The item's own data: its identifier and, when it has several, the others. */
export function extractIdentifiers(node: RawNode): Props {
  const identifiers: Props = {};
  const identifier = node.first(OBJECT_IDENTIFIER);
  if (identifier !== undefined) identifiers[IDENTIFIER] = identifier;
  const others = node.values.get(OTHER_IDENTIFIERS);
  if (others !== undefined) identifiers[OTHER_IDENTIFIERS] = others;
  return identifiers;
}

function isDescriptionField(field: string): boolean {
  return !(
    field.startsWith(UNKNOWN_PREFIX) ||
    field === OBJECT_IDENTIFIER ||
    field === IDENTIFIER ||
    field === OTHER_IDENTIFIERS ||
    field.startsWith(MAINTENANCE_EVENT) ||
    field.startsWith(ACCESS_POINT) ||
    field.startsWith(IGNORED_PREFIX) ||
    field.startsWith(ADDRESS_PREFIX) ||
    field.endsWith(ACCESS_POINT)
  );
}

/** A description's data of `type`: every mapped field that is not the item's or a dependent's. */
export function extractDescription(node: RawNode, type: DependentType): Props {
  // A fresh literal, not a spread copy: V8 makes the latter slow to add the fields to.
  const description: Props = { [CREATION_PROCESS]: IMPORTED };
  for (const [field, value] of node.values) {
    if (field === DESCRIPTION_IDENTIFIER) description[IDENTIFIER] = value;
    else if (isDescriptionField(field)) description[field] = storedValue(type, field, value);
  }
  return description;
}

function fieldsWithPrefix(node: RawNode, prefix: string): Props {
  const fields: Props = {};
  for (const [field, value] of node.values) {
    if (field.startsWith(prefix)) fields[field.slice(prefix.length)] = value;
  }
  return fields;
}

/** The `address/…` fields, without their prefix (empty when there are none). */
export function extractAddress(node: RawNode): Props {
  return fieldsWithPrefix(node, ADDRESS_PREFIX);
}

/** The unmapped fields, keyed by their element path (empty when there are none). */
export function extractUnknownProperties(node: RawNode): Props {
  return fieldsWithPrefix(node, UNKNOWN_PREFIX);
}

/** EAC-CPF 2010's maintenance event types. */
export const MAINTENANCE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'created',
  'revised',
  'deleted',
  'cancelled',
  'derived',
  'updated',
]);
/** Event types of EAG 1 and of EAC before its alignment, as the reference translates them. */
export const LEGACY_MAINTENANCE_EVENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['create', 'created'],
  ['creation', 'created'],
  ['update', 'updated'],
  ['delete', 'deleted'],
]);
export const DEFAULT_MAINTENANCE_EVENT_TYPE = 'updated';

function maintenanceEventType(value: RawValue | undefined): string {
  const type = typeof value === 'string' ? value : value?.[0];
  if (type === undefined) return DEFAULT_MAINTENANCE_EVENT_TYPE;
  if (MAINTENANCE_EVENT_TYPES.has(type)) return type;
  return LEGACY_MAINTENANCE_EVENT_TYPES.get(type) ?? DEFAULT_MAINTENANCE_EVENT_TYPE;
}

/** A maintenance event's data from its raw node; the event type always set. */
export function maintenanceEventData(node: RawNode): Props {
  const event: Props = Object.fromEntries(node.values);
  event[MAINTENANCE_EVENT_TYPE] = maintenanceEventType(node.values.get(MAINTENANCE_EVENT_TYPE));
  return event;
}

/** The node's maintenance event sub-nodes, as event data. */
export function extractMaintenanceEvents(node: RawNode): Props[] {
  return (node.subNodes.get(MAINTENANCE_EVENT) ?? []).map(maintenanceEventData);
}

/**
 * Dependent bundles of one relation, with ids derived from their owner's, so that re-reading the
 * same document gives the same ids.
 */
export function dependents(
  ownerId: string,
  relation: DependentRelation,
  type: DependentType,
  data: readonly Props[],
): Bundle[] {
  return data.map((props, index) => ({
    id: `${ownerId}/${relation}/${index}`,
    type,
    data: props,
    relations: {},
  }));
}

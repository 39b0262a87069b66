import { ItemWrite } from '../../graph/graph-store';
import { Bundle, Props } from '../../items/bundle';
import { descriptionId, isUsableIdentifier, joinPath } from '../../items/identifiers';
import { IDENTIFIER, LANGUAGE_CODE } from '../../items/ontology';
import { extractDates } from '../parsing/dates/date-parser';
import {
  dependents,
  extractAddress,
  extractDescription,
  extractIdentifiers,
  extractMaintenanceEvents,
  extractUnknownProperties,
} from './raw-extraction';
import { RawNode } from './raw-node';
import { ReadEvent } from '../formats/format-reader';

/** The country repositories are imported into, and the source they are read from. */
export interface RepositorySettings {
  tag: string;
  scope: { id: string; identifiers: readonly string[] };
}

const TYPE_OF_ENTITY = 'typeOfEntity';
const MAINTENANCE_NOTES = 'maintenanceNotes';
// EHRI keeps a repository's priority in its maintenance notes ("Priority: 5"); the reference
// lifts it into the repository's data.
const PRIORITY = /Priority: (-?\d+)/;

function repositoryData(node: RawNode): Props {
  const data = extractIdentifiers(node);
  const typeOfEntity = node.values.get(TYPE_OF_ENTITY);
  if (typeOfEntity !== undefined) data[TYPE_OF_ENTITY] = typeOfEntity;
  for (const note of node.all(MAINTENANCE_NOTES)) {
    const match = PRIORITY.exec(note);
    if (match !== null) data.priority = Number(match[1]);
  }
  return data;
}

function descriptionBundle(node: RawNode, itemId: string): Bundle {
  const data = extractDescription(node, 'RepositoryDescription');
  const identifier = data[IDENTIFIER];
  // As in the reference, the description's identifier is the EAG id, marked as a description's.
  if (typeof identifier === 'string') data[IDENTIFIER] = `${identifier}#desc`;
  const id = descriptionId(itemId, String(data[LANGUAGE_CODE]), data[IDENTIFIER] as string | undefined);
  const dates = extractDates(node);
  const address = extractAddress(node);
  const unknowns = extractUnknownProperties(node);
  const events = extractMaintenanceEvents(node);
  const relations: Bundle['relations'] = {};
  if (dates.length > 0) relations.hasDate = dependents(id, 'hasDate', 'DatePeriod', dates);
  if (Object.keys(address).length > 0)
    relations.hasAddress = dependents(id, 'hasAddress', 'Address', [address]);
  if (Object.keys(unknowns).length > 0) {
    relations.hasUnknownProperty = dependents(id, 'hasUnknownProperty', 'UnknownProperty', [unknowns]);
  }
  if (events.length > 0) relations.maintenance = dependents(id, 'maintenance', 'MaintenanceEvent', events);
  return { id, type: 'RepositoryDescription', data, relations };
}

/**
 * The repository as the reference's `EagImporter` builds it: the item with its identifiers and
 * type of entity, one description with its address, in the scope country.
 */
export function repositoryEvent(node: RawNode, settings: RepositorySettings): ReadEvent {
  const data = repositoryData(node);
  const identifier = data[IDENTIFIER];
  if (typeof identifier !== 'string' || !isUsableIdentifier(identifier)) {
    const blank =
      typeof identifier === 'string' ? ` (${JSON.stringify(identifier)} slugifies to nothing)` : '';
    return {
      kind: 'invalid',
      tag: settings.tag,
      key: settings.tag,
      message: `Repository in ${settings.tag}: identifier: missing: a repository needs an identifier${blank}`,
    };
  }
  const itemId = joinPath([...settings.scope.identifiers, identifier]);
  const bundle: Bundle = {
    id: itemId,
    type: 'Repository',
    data,
    relations: { describes: [descriptionBundle(node, itemId)] },
  };
  const write: Omit<ItemWrite, 'hash'> = {
    bundle,
    edges: { hasCountry: [settings.scope.id], hasPermissionScope: [settings.scope.id] },
  };
  return { kind: 'item', tag: settings.tag, write };
}

import { Bundle, PropValue, Props } from '../../../items/bundle';
import { descriptionId, isUsableIdentifier, joinPath } from '../../../items/identifiers';
import {
  ACCESS_POINT_TYPE,
  DATE_PERIOD_PRECISION,
  IDENTIFIER,
  LANGUAGE_CODE,
  MAINTENANCE_EVENT_TYPE,
  NAME,
  OTHER_IDENTIFIERS,
  START_DATE,
} from '../../../items/ontology';
import { UNKNOWN_PREFIX } from '../../parsing/xml/mapped-xml-handler';
import {
  DEFAULT_MAINTENANCE_EVENT_TYPE,
  LEGACY_MAINTENANCE_EVENT_TYPES,
  MAINTENANCE_EVENT_TYPES,
} from '../../building/raw-extraction';
import { RawNode, RawValue } from '../../building/raw-node';
import { ImportContext, ReadEvent } from '../format-reader';
import { EAC_SUB_NODES, EacRecord } from './eac-handler';

/** Where the agents of one document go. */
export interface AgentSettings {
  scope: NonNullable<ImportContext['scope']>;
  /** The description language when the record declares none (ISO 639-2/T). */
  defaultLang: string;
  tag: string;
}

/** Raw fields of the reference's EAC mapping that are not description fields. */
const OBJECT_IDENTIFIER = 'objectIdentifier';
const DESCRIPTION_IDENTIFIER = 'descriptionIdentifier';
const TYPE_OF_ENTITY = 'typeOfEntity';
const OTHER_FORMS_OF_NAME = 'otherFormsOfName';
const NAME_PART = 'namePart';
const NOT_DESCRIPTION_FIELDS = new Set([
  OBJECT_IDENTIFIER,
  IDENTIFIER,
  OTHER_IDENTIFIERS,
  DESCRIPTION_IDENTIFIER,
]);
const NOT_DESCRIPTION_PREFIXES = [UNKNOWN_PREFIX, 'maintenanceEvent', 'IGNORE', 'relation', 'address/'];

/** `HistoricalAgentDescription` fields that hold several values (allowedNodeProperties.csv). */
const MULTIVALUED_FIELDS = new Set([
  'source',
  OTHER_FORMS_OF_NAME,
  'place',
  'maintenanceEvent',
  'otherFormsOfFirstName',
  'otherFormsOfLastName',
]);
/** How the reference joins several values of a single-valued field. */
const VALUE_SEPARATOR = '\n\n';

const DEFAULT_ACCESS_POINT_TYPE = 'corporateBody';
const CREATION_PROCESS = { creationProcess: 'IMPORT' };

// The granularity of an ISO 8601 date: a day, a month or a year.
const ISO_DATE = /^(\d{4})(-\d{2})?(-\d{2})?$/;

/** A record that cannot become an agent: the field at fault and why. */
class RecordProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function descriptionValue(field: string, value: RawValue): PropValue {
  if (typeof value === 'string' || MULTIVALUED_FIELDS.has(field)) return value;
  return value.join(VALUE_SEPARATOR);
}

function isDescriptionField(field: string): boolean {
  return (
    !NOT_DESCRIPTION_FIELDS.has(field) && !NOT_DESCRIPTION_PREFIXES.some((prefix) => field.startsWith(prefix))
  );
}

/** All the node's values, as they are (a sub-node's fields are not flattened by the reference). */
function dataOf(node: RawNode): Props {
  return Object.fromEntries(node.values);
}

/**
 * The agent's name and other forms of name, from the name entries (the reference's
 * `EacHandler.chooseName`): the first entry's parts, joined, are the name; the other entries'
 * parts are other forms of name, unless they repeat the name (in any case).
 */
function namesOf(record: RawNode): { name?: string; otherForms: string[] } {
  const entries = (record.subNodes.get(EAC_SUB_NODES.nameEntry) ?? [])
    .map((entry) => entry.all(NAME_PART).join(' ').trim())
    .filter((entry) => entry !== '');
  const mappedOtherForms = record.all(OTHER_FORMS_OF_NAME);
  if (entries.length === 0) return { name: record.first(NAME), otherForms: mappedOtherForms };
  const [name, ...others] = entries;
  const otherForms = others.filter((other) => other.toLowerCase() !== name.toLowerCase());
  return { name, otherForms: [...new Set([...mappedOtherForms, ...otherForms])] };
}

function precisionOf(startDate: PropValue | undefined): string | undefined {
  const match = typeof startDate === 'string' ? ISO_DATE.exec(startDate) : null;
  if (match === null) return undefined;
  return match[3] !== undefined ? 'day' : match[2] !== undefined ? 'month' : 'year';
}

/** A date range as the record gives it, with its precision inferred from the start date. */
function datePeriod(node: RawNode, id: string): Bundle {
  const data = dataOf(node);
  const precision = data[DATE_PERIOD_PRECISION] ?? precisionOf(data[START_DATE]);
  return {
    id,
    type: 'DatePeriod',
    data: precision === undefined ? data : { ...data, precision },
    relations: {},
  };
}

function maintenanceEvent(node: RawNode, id: string): Bundle {
  const given = node.first(MAINTENANCE_EVENT_TYPE);
  const eventType =
    given === undefined
      ? DEFAULT_MAINTENANCE_EVENT_TYPE
      : (LEGACY_MAINTENANCE_EVENT_TYPES.get(given) ?? given);
  if (!MAINTENANCE_EVENT_TYPES.has(eventType)) {
    const expected = [...MAINTENANCE_EVENT_TYPES].join(', ');
    throw new RecordProblem(
      'maintenanceEvent/eventType',
      `unknown event type "${given}" (expected ${expected})`,
    );
  }
  return {
    id,
    type: 'MaintenanceEvent',
    data: { ...dataOf(node), [MAINTENANCE_EVENT_TYPE]: eventType },
    relations: {},
  };
}

/** A related entity (`cpfRelation`), kept as an access point of the description. */
function accessPoint(node: RawNode, id: string): Bundle {
  const data = dataOf(node);
  return {
    id,
    type: 'AccessPoint',
    data: { [ACCESS_POINT_TYPE]: DEFAULT_ACCESS_POINT_TYPE, ...data },
    relations: {},
  };
}

/** The record's unmapped elements, in one unknown property keyed by their paths. */
function unknownProperties(record: RawNode, id: string): Bundle[] {
  const unknowns = [...record.values].filter(([field]) => field.startsWith(UNKNOWN_PREFIX));
  if (unknowns.length === 0) return [];
  const data = Object.fromEntries(
    unknowns.map(([field, value]) => [field.slice(UNKNOWN_PREFIX.length), value]),
  );
  return [{ id, type: 'UnknownProperty', data, relations: {} }];
}

function subNodes(record: RawNode, field: string, build: (node: RawNode, index: number) => Bundle): Bundle[] {
  return (record.subNodes.get(field) ?? []).map(build);
}

function descriptionData(record: RawNode, name: string, otherForms: string[], languageCode: string): Props {
  const fields = [...record.values].filter(([field]) => isDescriptionField(field));
  const data: Props = Object.fromEntries(
    fields.map(([field, value]) => [field, descriptionValue(field, value)]),
  );
  const identifier = record.first(DESCRIPTION_IDENTIFIER);
  return {
    ...CREATION_PROCESS,
    ...data,
    ...(identifier === undefined ? {} : { [IDENTIFIER]: identifier }),
    [NAME]: name,
    [LANGUAGE_CODE]: languageCode,
    // As the reference collects them: one value is a text, several a list.
    ...(otherForms.length === 0
      ? {}
      : { [OTHER_FORMS_OF_NAME]: otherForms.length === 1 ? otherForms[0] : otherForms }),
  };
}

function description(record: RawNode, itemId: string, defaultLang: string): Bundle {
  const { name, otherForms } = namesOf(record);
  if (name === undefined)
    throw new RecordProblem('nameEntry', "missing: the agent's name comes from nameEntry/part");
  const languageCode = record.first(LANGUAGE_CODE) ?? defaultLang;
  const id = descriptionId(itemId, languageCode, record.first(DESCRIPTION_IDENTIFIER));
  const relations: Bundle['relations'] = {
    hasDate: subNodes(record, EAC_SUB_NODES.datePeriod, (node, index) =>
      datePeriod(node, `${id}.date-${index}`),
    ),
    maintenance: subNodes(record, EAC_SUB_NODES.maintenanceEvent, (node, index) =>
      maintenanceEvent(node, `${id}.event-${index}`),
    ),
    relatesTo: subNodes(record, EAC_SUB_NODES.accessPoint, (node, index) =>
      accessPoint(node, `${id}.relation-${index}`),
    ),
    hasUnknownProperty: unknownProperties(record, `${id}.unknown`),
  };
  return {
    id,
    type: 'HistoricalAgentDescription',
    data: descriptionData(record, name, otherForms, languageCode),
    relations: Object.fromEntries(Object.entries(relations).filter(([, bundles]) => bundles.length > 0)),
  };
}

function agentData(record: RawNode, identifier: string): Props {
  const otherIdentifiers = record.values.get(OTHER_IDENTIFIERS);
  const typeOfEntity = record.first(TYPE_OF_ENTITY);
  return {
    [IDENTIFIER]: identifier,
    ...(otherIdentifiers === undefined ? {} : { [OTHER_IDENTIFIERS]: otherIdentifiers }),
    ...(typeOfEntity === undefined ? {} : { [TYPE_OF_ENTITY]: typeOfEntity }),
  };
}

function agent(record: RawNode, settings: AgentSettings): Bundle {
  const identifier = record.first(OBJECT_IDENTIFIER);
  if (!isUsableIdentifier(identifier)) {
    const blank = identifier === undefined ? '' : ` (${JSON.stringify(identifier)} slugifies to nothing)`;
    throw new RecordProblem(
      'entityId',
      `missing: the agent's identifier comes from cpfDescription/identity/entityId${blank}`,
    );
  }
  const id = joinPath([...settings.scope.identifiers, identifier]);
  return {
    id,
    type: 'HistoricalAgent',
    data: agentData(record, identifier),
    relations: { describes: [description(record, id, settings.defaultLang)] },
  };
}

/**
 * A `HistoricalAgent` in the scope's authoritative set from one EAC-CPF record, as the reference's
 * `EacImporter`, or the reason it cannot be one (naming the record and the field).
 */
export function agentFromRecord({ node, line }: EacRecord, settings: AgentSettings): ReadEvent {
  const scopeId = settings.scope.bundle.id;
  try {
    const bundle = agent(node, settings);
    const edges = { inAuthoritativeSet: [scopeId], hasPermissionScope: [scopeId] };
    return { kind: 'item', tag: settings.tag, write: { bundle, edges } };
  } catch (error) {
    if (!(error instanceof RecordProblem)) throw error;
    const record = node.first(DESCRIPTION_IDENTIFIER) ?? node.first(OBJECT_IDENTIFIER);
    const name = record === undefined ? 'EAC record' : `EAC record ${record}`;
    return {
      kind: 'invalid',
      tag: settings.tag,
      key: record ?? settings.tag,
      message: `${name} (${settings.tag}, line ${line}): ${error.field}: ${error.message}`,
    };
  }
}

import { Bundle, Props } from '../../items/bundle';
import { IDENTIFIER, LANGUAGE_CODE, NAME, OTHER_IDENTIFIERS } from '../../items/ontology';
import { iso6391Code } from '../languages';
import { Carriers, RawFields, XmlBuilder, dataText, dependentsOf } from '../xml-writer';

const EAC_NAMESPACE = 'urn:isbn:1-931666-33-4';
const SCHEMA_LOCATION = `${EAC_NAMESPACE} http://eac.staatsbibliothek-berlin.de/schema/cpf.xsd`;
const XLINK = 'http://www.w3.org/1999/xlink';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

const ENTITY_TYPES = new Set(['person', 'corporateBody', 'family']);
const AGENT_TYPES = new Set(['human', 'machine']);
const EVENT_TYPES = new Set(['created', 'revised', 'deleted', 'cancelled', 'derived', 'updated']);
const RELATION_TYPES = new Set([
  'identity',
  'hierarchical',
  'hierarchical-parent',
  'hierarchical-child',
  'temporal',
  'temporal-earlier',
  'temporal-later',
  'family',
  'associative',
]);
/** The access point type the EAC import gives a relation that states none. */
const DEFAULT_RELATION_TYPE = 'corporateBody';
const EVENT_DESCRIPTION = 'UNKNOWN_eac-cpf_control_maintenanceHistory_maintenanceEvent_eventDescription_';

/** Description texts written as `<element><term>` and `<element><p>` (the reference's layout). */
const TERM_ELEMENTS: readonly [string, string][] = [
  ['legalStatus', 'legalStatus'],
  ['functions', 'function'],
  ['occupation', 'occupation'],
  ['mandates', 'mandate'],
];
const PARAGRAPH_ELEMENTS: readonly [string, string][] = [
  ['structure', 'structureOrGenealogy'],
  ['generalContext', 'generalContext'],
];

const SUB_NODES = { events: 'MaintenanceEvent', dates: 'DatePeriod', relations: 'AccessPoint' } as const;

/** What the export of one agent needs besides the agent. */
export interface EacExportContext {
  /** ISO 8601 time of the export, for the event the schema asks for when none is stored. */
  now: string;
}

/** The raw fields the EAC import (`eac.properties`) makes an agent and its description from. */
function rawFieldsOf(agent: Bundle, description: Bundle): RawFields {
  const fields = new RawFields();
  for (const [key, value] of Object.entries(description.data)) {
    if (key === 'creationProcess' || key === NAME || key === 'otherFormsOfName') continue;
    fields.set(key === IDENTIFIER ? 'descriptionIdentifier' : key, value);
  }
  fields.set('objectIdentifier', agent.data[IDENTIFIER]);
  fields.set(OTHER_IDENTIFIERS, agent.data[OTHER_IDENTIFIERS]);
  if (description.data.typeOfEntity === undefined) fields.set('typeOfEntity', agent.data.typeOfEntity);
  for (const unknown of dependentsOf(description, 'hasUnknownProperty')) {
    for (const [key, value] of Object.entries(unknown.data)) fields.set(`UNKNOWN_${key}`, value);
  }
  return fields;
}

function only(data: Props, allowed: readonly string[]): boolean {
  return Object.entries(data).every(([key, value]) => allowed.includes(key) && !Array.isArray(value));
}

/** Whether each sub-node list reads back from its EAC-CPF elements as it is stored. */
function eventsFit(events: readonly Bundle[]): boolean {
  return events.every(
    ({ data }) =>
      only(data, ['eventType', 'date', 'agentType', 'agent', EVENT_DESCRIPTION]) &&
      AGENT_TYPES.has(String(data.agentType)) &&
      EVENT_TYPES.has(String(data.eventType)),
  );
}

function datesFit(dates: readonly Bundle[]): boolean {
  return dates.length <= 1 && dates.every(({ data }) => only(data, ['startDate', 'endDate', 'precision']));
}

function relationsFit(relations: readonly Bundle[]): boolean {
  return relations.every(
    ({ data }) =>
      only(data, ['type', 'url', 'name']) &&
      (data.type === DEFAULT_RELATION_TYPE || RELATION_TYPES.has(String(data.type))),
  );
}

/**
 * One agent as EAC-CPF 2010, in the reference's `Eac2010Exporter` layout, valid against
 * `eac.xsd`. What the layout cannot hold as stored goes into `localControl` carriers (sub-nodes
 * whole), so that the EAC import gives the agent back unchanged; what the schema requires and the
 * agent lacks is marked as made up.
 */
export function eacDocument(agent: Bundle, description: Bundle, context: EacExportContext): string {
  const fields = rawFieldsOf(agent, description);
  const carriers = new Carriers();
  const body = new XmlBuilder(1);
  writeDescription(body, agent, description, fields, carriers);
  const language = dataText(description.data, LANGUAGE_CODE);
  const xml = new XmlBuilder();
  xml.element(
    'eac-cpf',
    {
      xmlns: EAC_NAMESPACE,
      'xmlns:xlink': XLINK,
      'xmlns:xsi': XSI,
      'xsi:schemaLocation': SCHEMA_LOCATION,
      'xml:lang': language === undefined ? undefined : iso6391Code(language),
    },
    () => {
      writeControl(xml, agent, description, fields, carriers, context.now);
      xml.append(body);
    },
  );
  return xml.toString();
}

function writeControl(
  xml: XmlBuilder,
  agent: Bundle,
  description: Bundle,
  fields: RawFields,
  carriers: Carriers,
  now: string,
): void {
  const events = dependentsOf(description, 'maintenance');
  xml.element('control', undefined, () => {
    const recordId = fields.takeOne('descriptionIdentifier');
    if (recordId === undefined) carriers.generated('descriptionIdentifier');
    xml.leaf('recordId', recordId ?? agent.id);
    replayed(xml, fields, carriers, ['maintenanceStatus'], 'revised');
    const publication = fields.takeOne(unknownField(['publicationStatus']));
    if (publication !== undefined) xml.leaf('publicationStatus', publication);
    xml.element('maintenanceAgency', undefined, () =>
      replayed(xml, fields, carriers, ['maintenanceAgency', 'agencyName'], 'The EHRI Consortium'),
    );
    declaration(xml, fields, 'conventionDeclaration');
    declaration(xml, fields, 'localTypeDeclaration');
    const sources = fields.take('source');
    if (!eventsFit(events) || events.length === 0) {
      carriers.generated(SUB_NODES.events);
      carriers.nodes(SUB_NODES.events, events);
    }
    carriers.rest(fields);
    carriers.write(xml);
    xml.element('maintenanceHistory', undefined, () => {
      for (const { data } of events) writeEvent(xml, data);
      if (events.length === 0) {
        writeEvent(xml, { eventType: 'created', date: now, agentType: 'machine', agent: agent.id });
      }
    });
    if (sources.length > 0) {
      xml.element('sources', undefined, () => {
        for (const source of sources) xml.element('source', undefined, () => xml.leaf('sourceEntry', source));
      });
    }
  });
}

function unknownField(path: readonly string[]): string {
  return `UNKNOWN_eac-cpf_control_${path.join('_')}_`;
}

/** A required element of `control` that the mapping leaves unmapped: its kept text, or a made-up one. */
function replayed(
  xml: XmlBuilder,
  fields: RawFields,
  carriers: Carriers,
  path: readonly string[],
  fallback: string,
): void {
  const field = unknownField(path);
  const text = fields.takeOne(field);
  if (text === undefined) carriers.generated(field);
  xml.leaf(path[path.length - 1], text ?? fallback);
}

/** A convention or local type declaration, when the import kept its abbreviation or citation. */
function declaration(xml: XmlBuilder, fields: RawFields, element: string): void {
  const abbreviation = fields.takeOne(unknownField([element, 'abbreviation']));
  const citation = fields.takeOne(unknownField([element, 'citation']));
  if (abbreviation === undefined && citation === undefined) return;
  xml.element(element, undefined, () => {
    if (abbreviation !== undefined) xml.leaf('abbreviation', abbreviation);
    xml.leaf('citation', citation);
  });
}

function writeEvent(xml: XmlBuilder, data: Props): void {
  xml.element('maintenanceEvent', undefined, () => {
    const eventType = dataText(data, 'eventType');
    xml.leaf('eventType', eventType !== undefined && EVENT_TYPES.has(eventType) ? eventType : 'updated');
    xml.leaf('eventDateTime', dataText(data, 'date'));
    const agentType = dataText(data, 'agentType');
    xml.leaf('agentType', agentType !== undefined && AGENT_TYPES.has(agentType) ? agentType : 'human');
    xml.leaf('agent', dataText(data, 'agent'));
    const note = dataText(data, EVENT_DESCRIPTION);
    if (note !== undefined) xml.leaf('eventDescription', note);
  });
}

function writeDescription(
  xml: XmlBuilder,
  agent: Bundle,
  description: Bundle,
  fields: RawFields,
  carriers: Carriers,
): void {
  xml.element('cpfDescription', undefined, () => {
    xml.element('identity', undefined, () => {
      // The reference's mapping reads a description URL from `entityId/@xlink:href`, which EAC-CPF
      // does not allow: it is carried.
      xml.leaf('entityId', fields.takeOne('objectIdentifier'));
      let entityType = fields.takeOne('typeOfEntity');
      if (entityType === undefined || !ENTITY_TYPES.has(entityType)) {
        if (entityType !== undefined) carriers.field('typeOfEntity', [entityType]);
        carriers.generated('typeOfEntity');
        entityType = 'corporateBody';
      }
      xml.leaf('entityType', entityType);
      const name = dataText(description.data, NAME) ?? agent.id;
      xml.element('nameEntry', undefined, () => xml.leaf('part', name));
      const otherForms = description.data.otherFormsOfName;
      for (const form of otherForms === undefined ? [] : [otherForms].flat()) {
        xml.element('nameEntry', undefined, () => xml.leaf('part', String(form)));
      }
    });
    const content = new XmlBuilder(3);
    writeDescriptionContent(content, description, fields, carriers);
    const text = content.toString();
    if (text !== '') xml.element('description', undefined, () => xml.append(content));
    writeRelations(xml, dependentsOf(description, 'relatesTo'), carriers);
  });
}

function writeDescriptionContent(
  xml: XmlBuilder,
  description: Bundle,
  fields: RawFields,
  carriers: Carriers,
): void {
  const dates = dependentsOf(description, 'hasDate');
  const datesText = fields.take('datesOfExistence');
  if (!datesFit(dates)) {
    carriers.generated(SUB_NODES.dates);
    carriers.nodes(SUB_NODES.dates, dates);
  }
  if (dates.length > 0 && datesText.length > 0) carriers.field('datesOfExistence', datesText);
  if (dates.length > 0) {
    const [{ data }] = dates;
    xml.element('existDates', undefined, () =>
      xml.element('dateRange', undefined, () => {
        const from = dataText(data, 'startDate');
        const to = dataText(data, 'endDate');
        if (from !== undefined) xml.leaf('fromDate', from);
        if (to !== undefined) xml.leaf('toDate', to);
      }),
    );
  } else if (datesText.length > 0) {
    xml.element('existDates', undefined, () => datesText.forEach((text) => xml.leaf('date', text)));
  }
  for (const place of fields.take('place')) {
    xml.element('place', undefined, () => xml.leaf('placeEntry', place));
  }
  for (const [field, element] of TERM_ELEMENTS) {
    for (const text of fields.take(field)) xml.element(element, undefined, () => xml.leaf('term', text));
  }
  for (const [field, element] of PARAGRAPH_ELEMENTS) {
    const texts = fields.take(field);
    if (texts.length > 0) xml.element(element, undefined, () => texts.forEach((text) => xml.leaf('p', text)));
  }
  const history = fields.take('biographicalHistory');
  if (history.length > 0)
    xml.element('biogHist', undefined, () => history.forEach((text) => xml.leaf('p', text)));
}

function writeRelations(xml: XmlBuilder, relations: readonly Bundle[], carriers: Carriers): void {
  if (relations.length === 0) return;
  if (!relationsFit(relations)) {
    carriers.generated(SUB_NODES.relations);
    carriers.nodes(SUB_NODES.relations, relations);
  }
  xml.element('relations', undefined, () => {
    for (const { data } of relations) {
      const type = dataText(data, 'type');
      const attributes = {
        cpfRelationType: type !== undefined && RELATION_TYPES.has(type) ? type : undefined,
        'xlink:href': dataText(data, 'url'),
      };
      xml.element('cpfRelation', attributes, () => {
        const name = dataText(data, 'name');
        if (name !== undefined) xml.leaf('relationEntry', name);
        const note = dataText(data, 'description');
        if (note !== undefined) xml.element('descriptiveNote', undefined, () => xml.leaf('p', note));
      });
    }
  });
}

import { Bundle, Props } from '../../items/bundle';
import { IDENTIFIER, LANGUAGE_CODE, NAME, OTHER_IDENTIFIERS } from '../../items/ontology';
import { EAG_2012_NAMESPACE } from '../../import/formats/eag/eag2012-mapping';
import { Carriers, RawFields, XmlBuilder, dataText, dependentsOf } from '../xml-writer';

/** Where the reference's exporter says the schema is (the file is `eag_2012.xsd`). */
const SCHEMA_LOCATION = `${EAG_2012_NAMESPACE} http://schemas.archivesportaleurope.net/profiles/eag.xsd`;
const XLINK = 'http://www.w3.org/1999/xlink';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
/** The importer marks a repository description's identifier as such; the export takes it off. */
const DESCRIPTION_MARK = '#desc';
const GEOGRAPHIC_AREAS = new Set([
  'Africa',
  'Antarctica',
  'Asia',
  'Australia',
  'Europe',
  'North America',
  'South America',
]);
const MAINTENANCE_EVENT = 'MaintenanceEvent';
/** The fields an EAG 2012 maintenance event holds, each once. */
const EVENT_FIELDS = new Set(['agent', 'agentType', 'date', 'eventType']);
const AGENT_TYPES = new Set(['human', 'machine']);

/** What the export of one repository needs besides the repository. */
export interface EagExportContext {
  /** Upper-case ISO 3166 code of the repository's country. */
  countryCode: string;
  /** ISO 8601 time of the export, for the event the schema asks for when none is stored. */
  now: string;
}

/** The raw fields the EAG import (`eag2012-mapping.ts`) makes a repository and its description from. */
function rawFieldsOf(repository: Bundle, description: Bundle): RawFields {
  const fields = new RawFields();
  for (const [key, value] of Object.entries(description.data)) {
    if (key === 'creationProcess') continue;
    if (key === IDENTIFIER) {
      const identifier = String(value);
      const marked = identifier.endsWith(DESCRIPTION_MARK);
      fields.set(
        'descriptionIdentifier',
        marked ? identifier.slice(0, -DESCRIPTION_MARK.length) : identifier,
      );
    } else fields.set(key, value);
  }
  fields.set('objectIdentifier', repository.data[IDENTIFIER]);
  fields.set(OTHER_IDENTIFIERS, repository.data[OTHER_IDENTIFIERS]);
  for (const address of dependentsOf(description, 'hasAddress')) {
    for (const [key, value] of Object.entries(address.data)) fields.set(`address/${key}`, value);
  }
  for (const unknown of dependentsOf(description, 'hasUnknownProperty')) {
    for (const [key, value] of Object.entries(unknown.data)) fields.set(`UNKNOWN_${key}`, value);
  }
  return fields;
}

/** Whether the events read back from their EAG 2012 elements as they are stored. */
function eventsFit(events: readonly Bundle[]): boolean {
  return events.every(({ data }) =>
    Object.entries(data).every(
      ([key, value]) =>
        EVENT_FIELDS.has(key) &&
        !Array.isArray(value) &&
        (key !== 'agentType' || AGENT_TYPES.has(String(value))),
    ),
  );
}

/**
 * One repository as EAG 2012, in the reference's `Eag2012Exporter` layout, valid against
 * `eag_2012.xsd`. Every stored field the layout has no element for, and every unmapped text the
 * import kept, goes into a `localControl` carrier, so that the EAG import gives the repository back
 * unchanged; the elements the schema requires and the repository lacks are marked as made up.
 */
export function eag2012Document(repository: Bundle, description: Bundle, context: EagExportContext): string {
  const fields = rawFieldsOf(repository, description);
  const carriers = new Carriers();
  // The repository part is written first: what it leaves of the fields, the control part carries.
  const archguide = new XmlBuilder(1);
  writeArchguide(archguide, fields, carriers, context);
  const xml = new XmlBuilder();
  xml.element(
    'eag',
    {
      xmlns: EAG_2012_NAMESPACE,
      'xmlns:xlink': XLINK,
      'xmlns:xsi': XSI,
      audience: 'external',
      'xsi:schemaLocation': SCHEMA_LOCATION,
    },
    () => {
      writeControl(xml, fields, carriers, description, repository, context);
      xml.append(archguide);
    },
  );
  return xml.toString();
}

function writeControl(
  xml: XmlBuilder,
  fields: RawFields,
  carriers: Carriers,
  description: Bundle,
  repository: Bundle,
  { countryCode, now }: EagExportContext,
): void {
  const events = dependentsOf(description, 'maintenance');
  const itemId = repository.id;
  const recordId = fields.takeOne('descriptionIdentifier');
  if (recordId === undefined) carriers.generated('descriptionIdentifier');
  // What follows the record ids is written first: the carriers, right after them, take the rest.
  const rest = new XmlBuilder(2);
  rest.element('maintenanceAgency', undefined, () => {
    replayed(rest, fields, carriers, ['maintenanceAgency', 'agencyCode'], 'EHRI');
    replayed(rest, fields, carriers, ['maintenanceAgency', 'agencyName'], 'The EHRI Consortium');
  });
  replayed(rest, fields, carriers, ['maintenanceStatus'], 'revised');
  rest.element('maintenanceHistory', undefined, () => {
    if (events.length === 0 || !eventsFit(events)) {
      carriers.generated(MAINTENANCE_EVENT);
      carriers.nodes(MAINTENANCE_EVENT, events);
    }
    for (const { data } of events) writeEvent(rest, data);
    if (events.length === 0) {
      writeEvent(rest, { agent: itemId, agentType: 'machine', date: now, eventType: 'created' });
    }
  });
  const language = fields.takeOne(LANGUAGE_CODE);
  if (language !== undefined) {
    rest.element('languageDeclarations', undefined, () =>
      rest.element('languageDeclaration', undefined, () => {
        rest.leaf('language', undefined, { languageCode: language });
        rest.leaf('script', undefined, { scriptCode: 'Latn' });
      }),
    );
  }
  for (const rules of fields.take('rulesAndConventions')) {
    rest.element('conventionDeclaration', undefined, () => rest.leaf('citation', rules));
  }
  const sources = fields.take('sources');
  if (sources.length > 0) {
    rest.element('sources', undefined, () => {
      for (const source of sources) rest.element('source', undefined, () => rest.leaf('sourceEntry', source));
    });
  }
  carriers.rest(fields);
  xml.element('control', undefined, () => {
    // Made up, as the reference makes every EAG 2012 record id.
    xml.leaf('recordId', recordId ?? `${countryCode}-${String(repository.data[IDENTIFIER] ?? itemId)}`);
    // EAG 2012 keeps `localControl` terms to a list of two: carriers are other record ids.
    carriers.writeAsRecordIds(xml);
    xml.append(rest);
  });
}

function writeEvent(xml: XmlBuilder, data: Props): void {
  xml.element('maintenanceEvent', undefined, () => {
    xml.leaf('agent', dataText(data, 'agent'));
    xml.leaf('agentType', dataText(data, 'agentType') ?? 'human');
    xml.leaf('eventDateTime', dataText(data, 'date'));
    xml.leaf('eventType', dataText(data, 'eventType') ?? 'updated');
  });
}

/**
 * An element of `control` the schema asks for and the mapping leaves unmapped: the text the import
 * kept for it, or a default marked as made up.
 */
function replayed(
  xml: XmlBuilder,
  fields: RawFields,
  carriers: Carriers,
  path: readonly string[],
  fallback: string,
): void {
  const field = `UNKNOWN_eag_control_${path.join('_')}_`;
  const text = fields.takeOne(field);
  if (text === undefined) carriers.generated(field);
  xml.leaf(path[path.length - 1], text ?? fallback);
}

function writeArchguide(xml: XmlBuilder, fields: RawFields, carriers: Carriers, context: EagExportContext) {
  xml.element('archguide', undefined, () => {
    xml.element('identity', undefined, () => {
      let countryCode = fields.takeOne('address/countryCode');
      if (countryCode === undefined) {
        carriers.generated('address/countryCode');
        countryCode = context.countryCode;
      }
      const repositoryCode = fields.takeOne('objectIdentifier');
      xml.leaf('repositorid', undefined, { countrycode: countryCode, repositorycode: repositoryCode });
      const otherIdentifier = fields.takeOne(OTHER_IDENTIFIERS);
      if (otherIdentifier !== undefined) xml.leaf('otherRepositorId', otherIdentifier);
      const name = fields.takeOne(NAME);
      if (name === undefined) carriers.generated(NAME);
      xml.leaf('autform', name ?? '-');
      // As the reference writes them, other forms of name among the parallel ones (EAG 2012's
      // `nonpreform` needs dates of use): both are carried when there are other forms.
      const parallel = fields.take('parallelFormsOfName');
      const other = fields.take('otherFormsOfName');
      for (const form of [...parallel, ...other]) xml.leaf('parform', form);
      if (other.length > 0) {
        carriers.generated('parallelFormsOfName');
        carriers.field('parallelFormsOfName', parallel);
        carriers.field('otherFormsOfName', other);
      }
    });
    xml.element('desc', undefined, () =>
      xml.element('repositories', undefined, () =>
        xml.element('repository', undefined, () => writeRepository(xml, fields, carriers)),
      ),
    );
  });
}

function writeRepository(xml: XmlBuilder, fields: RawFields, carriers: Carriers): void {
  const area = fields.takeOne('geoculturalContext');
  if (area !== undefined && GEOGRAPHIC_AREAS.has(area)) {
    xml.leaf('geogarea', area);
  } else {
    if (area !== undefined) carriers.field('geoculturalContext', [area]);
    carriers.generated('geoculturalContext');
    xml.leaf('geogarea', 'Europe');
  }
  xml.element('location', { localType: 'postal address' }, () => {
    xml.leaf('country', fields.takeOne('address/country'));
    const firstdem = fields.takeOne('address/firstdem');
    if (firstdem !== undefined) xml.leaf('firstdem', firstdem);
    const secondem = fields.takeOne('address/secdem');
    if (secondem !== undefined) xml.leaf('secondem', secondem);
    xml.leaf('municipalityPostalcode', fields.takeOne('address/municipality'));
    xml.leaf('street', fields.takeOne('address/street'));
  });
  for (const telephone of fields.take('address/telephone')) xml.leaf('telephone', telephone);
  for (const fax of fields.take('address/fax')) xml.leaf('fax', fax);
  for (const email of fields.take('address/email')) xml.leaf('email', undefined, { href: email });
  for (const webpage of fields.take('address/webpage')) xml.leaf('webpage', undefined, { href: webpage });
  paragraphs(xml, ['repositorhist'], fields.take('history'));
  paragraphs(xml, ['buildinginfo', 'building'], fields.take('buildings'));
  const units = fields.take('administrativeStructure');
  if (units.length > 0) {
    xml.element('adminhierarchy', undefined, () => units.forEach((unit) => xml.leaf('adminunit', unit)));
  }
  paragraphs(xml, ['holdings'], fields.take('holdings'));
  xml.element('timetable', undefined, () => {
    const opening = fields.take('openingTimes');
    for (const text of opening.length === 0 ? [''] : opening) xml.leaf('opening', text);
  });
  xml.element('access', { question: 'yes' }, () => {
    for (const terms of fields.take('conditions')) xml.leaf('termsOfUse', terms);
  });
  const accessibility = fields.take('accessibility');
  for (const text of accessibility.length === 0 ? [''] : accessibility) {
    xml.leaf('accessibility', text, { question: 'yes' });
  }
}

/** Texts as `descriptiveNote` paragraphs inside the elements of `path`; nothing when there are none. */
function paragraphs(xml: XmlBuilder, path: readonly string[], texts: readonly string[]): void {
  if (texts.length === 0) return;
  const [first, ...rest] = path;
  xml.element(first, undefined, () => {
    if (rest.length > 0) paragraphs(xml, rest, texts);
    else xml.element('descriptiveNote', undefined, () => texts.forEach((text) => xml.leaf('p', text)));
  });
}

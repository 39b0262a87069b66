import { ImportContext, ReadEvent } from '../format-reader';
import { readXml } from '../../parsing/xml/xml-parser';
import { agentFromRecord } from './eac-agent';
import { EacHandler } from './eac-handler';
import { DEFAULT_EAC_MAPPING } from './eac-mapping';

const SCOPE: NonNullable<ImportContext['scope']> = {
  bundle: { id: 'auths', type: 'AuthoritativeSet', data: { identifier: 'auths' }, relations: {} },
  edges: {},
  hash: '',
  updated: '',
  ancestors: [],
  identifiers: ['auths'],
};

/** An EAC-CPF document with `identity` and `description` as given. */
function eac(identity: string, description = '', control = '<recordId>r1</recordId>'): string {
  return `<?xml version="1.0"?>
<eac-cpf xmlns="urn:isbn:1-931666-33-4" xmlns:xlink="http://www.w3.org/1999/xlink">
  <control>${control}</control>
  <cpfDescription>
    <identity>${identity}</identity>
    <description>${description}</description>
  </cpfDescription>
</eac-cpf>`;
}

async function read(xml: string): Promise<ReadEvent[]> {
  const source = {
    tag: 'test.xml',
    async *bytes() {
      yield Buffer.from(xml);
    },
  };
  const events: ReadEvent[] = [];
  for await (const record of readXml(source, (locator) => new EacHandler(DEFAULT_EAC_MAPPING, locator))) {
    events.push(agentFromRecord(record, { scope: SCOPE, defaultLang: 'eng', tag: 'test.xml' }));
  }
  return events;
}

async function agentOf(xml: string) {
  const [event] = await read(xml);
  if (event.kind !== 'item') throw new Error(event.message);
  return event.write;
}

async function descriptionOf(xml: string) {
  const [description] = (await agentOf(xml)).bundle.relations.describes ?? [];
  return description;
}

const ENTITY = '<entityId>a1</entityId>';

describe('agentFromRecord', () => {
  it('makes the first name entry the name and the others, if different, other forms of name', async () => {
    const description = await descriptionOf(
      eac(`${ENTITY}
        <nameEntry><part>Bund</part><part>Lite</part></nameEntry>
        <nameEntry><part>bund lite</part></nameEntry>
        <nameEntry><part>Algemeyner Bund</part></nameEntry>
        <nameEntry><part>Yidisher Bund</part></nameEntry>`),
    );

    expect(description.data).toMatchObject({
      name: 'Bund Lite',
      otherFormsOfName: ['Algemeyner Bund', 'Yidisher Bund'],
    });
  });

  it('joins several values of a single-valued field and keeps those of a multivalued one', async () => {
    const description = await descriptionOf(
      eac(
        `${ENTITY}<nameEntry><part>N</part></nameEntry>`,
        `<biogHist><p>First.</p><p>Second.</p></biogHist>
         <place><placeEntry>Vilnius</placeEntry></place><place><placeEntry>Warsaw</placeEntry></place>`,
      ),
    );

    expect(description.data).toMatchObject({
      biographicalHistory: 'First.\n\nSecond.',
      place: ['Vilnius', 'Warsaw'],
    });
  });

  it('gives the agent its scope, id and description id from entityId and recordId', async () => {
    const write = await agentOf(eac(`<entityId>Bund 159</entityId><nameEntry><part>N</part></nameEntry>`));

    expect(write.bundle).toMatchObject({ id: 'auths-bund_159', data: { identifier: 'Bund 159' } });
    expect(write.bundle.relations.describes?.[0].id).toBe('auths-bund_159.eng-r1');
    expect(write.edges).toEqual({ inAuthoritativeSet: ['auths'], hasPermissionScope: ['auths'] });
  });

  it('maps the reference’s older maintenance event types and defaults a missing one to updated', async () => {
    const history = `<maintenanceHistory>
      <maintenanceEvent><eventType>creation</eventType><agent>A</agent></maintenanceEvent>
      <maintenanceEvent><agent>B</agent></maintenanceEvent>
    </maintenanceHistory>`;

    const description = await descriptionOf(
      eac(`${ENTITY}<nameEntry><part>N</part></nameEntry>`, '', `<recordId>r1</recordId>${history}`),
    );

    expect(description.relations.maintenance?.map(({ data }) => data)).toEqual([
      { eventType: 'created', agent: 'A' },
      { eventType: 'updated', agent: 'B' },
    ]);
  });

  it('keeps a relation without type as a corporate body access point', async () => {
    const description = await descriptionOf(
      eac(`${ENTITY}<nameEntry><part>N</part></nameEntry>`, '').replace(
        '</cpfDescription>',
        '<relations><cpfRelation><relationEntry>Other</relationEntry></cpfRelation></relations></cpfDescription>',
      ),
    );

    expect(description.relations.relatesTo?.map(({ data }) => data)).toEqual([
      { type: 'corporateBody', name: 'Other' },
    ]);
  });

  it('infers the precision of a date range from its start date', async () => {
    const description = await descriptionOf(
      eac(
        `${ENTITY}<nameEntry><part>N</part></nameEntry>`,
        '<existDates><dateRange><fromDate>1941-06</fromDate><toDate>1944</toDate></dateRange></existDates>',
      ),
    );

    expect(description.relations.hasDate?.map(({ data }) => data)).toEqual([
      { startDate: '1941-06', endDate: '1944', precision: 'month' },
    ]);
  });

  it.each([
    [
      'entityId',
      eac('<nameEntry><part>N</part></nameEntry>'),
      /^EAC record r1 \(test\.xml, line 2\): entityId: missing/,
    ],
    ['nameEntry', eac(ENTITY), /^EAC record r1 \(test\.xml, line 2\): nameEntry: missing/],
    [
      'the maintenance event type',
      eac(
        `${ENTITY}<nameEntry><part>N</part></nameEntry>`,
        '',
        '<recordId>r1</recordId><maintenanceHistory><maintenanceEvent><eventType>edited</eventType></maintenanceEvent></maintenanceHistory>',
      ),
      /maintenanceEvent\/eventType: unknown event type "edited"/,
    ],
    [
      'maintenance event type named like an object property',
      eac(
        `${ENTITY}<nameEntry><part>N</part></nameEntry>`,
        '',
        '<recordId>r1</recordId><maintenanceHistory><maintenanceEvent><eventType>constructor</eventType></maintenanceEvent></maintenanceHistory>',
      ),
      /maintenanceEvent\/eventType: unknown event type "constructor"/,
    ],
  ])('refuses a record with a bad %s, naming the record and the field', async (_field, xml, message) => {
    const [event] = await read(xml);

    expect(event).toMatchObject({
      kind: 'invalid',
      tag: 'test.xml',
      key: 'r1',
      message: expect.stringMatching(message),
    });
  });
});

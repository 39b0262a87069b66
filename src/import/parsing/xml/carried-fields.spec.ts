import { EacHandler, EacRecord } from '../../formats/eac/eac-handler';
import { DEFAULT_EAC_MAPPING } from '../../formats/eac/eac-mapping';
import { EagHandler } from '../../formats/eag/eag-handler';
import { DEFAULT_EAG_MAPPING } from '../../formats/eag/eag-mapping';
import { EAG_2012_NAMESPACE } from '../../formats/eag/eag2012-mapping';
import { RawNode } from '../../building/raw-node';
import { readXml } from './xml-parser';

function localControl(localType: string, term: string): string {
  return `<localControl localType="${localType}"><term>${term}</term></localControl>`;
}

/** The raw record an EAC-CPF document with `control` content reads into. */
async function record(control: string): Promise<EacRecord> {
  const xml = `<eac-cpf xmlns="urn:isbn:1-931666-33-4"><control>${control}</control>
    <cpfDescription><identity><entityId>a1</entityId>
      <nameEntry><part>Name</part></nameEntry></identity></cpfDescription></eac-cpf>`;
  const source = {
    tag: 'test.xml',
    async *bytes() {
      yield Buffer.from(xml);
    },
  };
  const records: EacRecord[] = [];
  for await (const read of readXml(source, (locator) => new EacHandler(DEFAULT_EAC_MAPPING, locator))) {
    records.push(read);
  }
  expect(records).toHaveLength(1);
  return records[0];
}

describe('carried fields of exported records', () => {
  it('reads a carrier into its field, several into a list, and keeps no trace of the carrier', async () => {
    const { node } = await record(
      localControl('ehri:field:languageCode', 'deu') +
        localControl('ehri:field:UNKNOWN_x_', 'one') +
        localControl('ehri:field:UNKNOWN_x_', 'two'),
    );
    expect(Object.fromEntries(node.values)).toEqual({
      languageCode: 'deu',
      UNKNOWN_x_: ['one', 'two'],
      objectIdentifier: 'a1',
    });
  });

  it('drops what the export made up, then sets what it carried, sub-nodes in their order', async () => {
    const { node } = await record(
      '<maintenanceStatus>revised</maintenanceStatus>' +
        localControl('ehri:generated', 'UNKNOWN_eac-cpf_control_maintenanceStatus_') +
        localControl('ehri:generated', 'MaintenanceEvent') +
        localControl('ehri:node:MaintenanceEvent:1:agent', 'second') +
        localControl('ehri:node:MaintenanceEvent:0:agent', 'first') +
        localControl('ehri:node:MaintenanceEvent:0:agent', 'again') +
        '<maintenanceHistory><maintenanceEvent><eventType>created</eventType></maintenanceEvent></maintenanceHistory>',
    );
    expect(node.values.has('UNKNOWN_eac-cpf_control_maintenanceStatus_')).toBe(false);
    const events = (node.subNodes.get('MaintenanceEvent') ?? []).map((event) =>
      Object.fromEntries(event.values),
    );
    expect(events).toEqual([{ agent: ['first', 'again'] }, { agent: 'second' }]);
  });

  it('leaves other local controls to the mapping, and refuses a field that would replace a prototype', async () => {
    const { node } = await record(
      localControl('detailLevel', 'full') +
        localControl('ehri:field:__proto__', 'x') +
        localControl('ehri:node:A:b:c', 'x'),
    );
    expect([...node.values.keys()].filter((field) => !field.startsWith('UNKNOWN_'))).toEqual([
      'objectIdentifier',
    ]);
    expect(node.values.get('UNKNOWN_eac-cpf_control_localControl_term_')).toEqual(['full', 'x', 'x']);
  });

  it('reads the other record ids of EAG 2012 that carry fields', async () => {
    const xml = `<eag xmlns="${EAG_2012_NAMESPACE}"><control><recordId>NL-1</recordId>
      <otherRecordId localType="ehri:field:address/postalCode">1016 CJ</otherRecordId>
      <otherRecordId localType="ehri:generated">UNKNOWN_eag_control_maintenanceStatus_</otherRecordId>
      <otherRecordId>kept as it is</otherRecordId>
      <maintenanceStatus>revised</maintenanceStatus></control></eag>`;
    const source = {
      tag: 'test.xml',
      async *bytes() {
        yield Buffer.from(xml);
      },
    };
    const nodes: RawNode[] = [];
    for await (const node of readXml(
      source,
      (locator) => new EagHandler(DEFAULT_EAG_MAPPING, locator, 'eng', false),
    )) {
      nodes.push(node);
    }
    expect(nodes[0].values.get('address/postalCode')).toBe('1016 CJ');
    expect(nodes[0].values.get('UNKNOWN_eag_control_otherRecordId_')).toBe('kept as it is');
    expect(nodes[0].values.has('UNKNOWN_eag_control_maintenanceStatus_')).toBe(false);
  });
});

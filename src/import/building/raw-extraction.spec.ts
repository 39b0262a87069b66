import {
  dependents,
  extractAddress,
  extractDescription,
  extractIdentifiers,
  extractMaintenanceEvents,
  extractUnknownProperties,
} from './raw-extraction';
import { RawNode } from './raw-node';

function node(values: Record<string, string | string[]>): RawNode {
  const raw = new RawNode();
  for (const [field, value] of Object.entries(values)) raw.set(field, value);
  return raw;
}

describe('raw extraction', () => {
  const raw = node({
    objectIdentifier: 'C1',
    otherIdentifiers: ['C1a'],
    descriptionIdentifier: 'desc-1',
    name: 'Title',
    scopeAndContent: ['first', 'second'],
    notes: ['one', 'two'],
    'address/street': 'Herengracht 380',
    UNKNOWN_ead_archdesc_odd_: 'odd',
    subjectAccessPoint: 'from an attribute',
    IGNORE_this: 'x',
  });

  it('takes the identifiers for the item', () => {
    expect(extractIdentifiers(raw)).toEqual({ identifier: 'C1', otherIdentifiers: ['C1a'] });
    expect(extractIdentifiers(node({ objectIdentifier: ['C1', 'C2'] }))).toEqual({ identifier: 'C1' });
  });

  it('takes the rest for the description, flattening fields that hold one value', () => {
    expect(extractDescription(raw, 'DocumentaryUnitDescription')).toEqual({
      creationProcess: 'IMPORT',
      identifier: 'desc-1',
      name: 'Title',
      scopeAndContent: 'first\n\nsecond',
      notes: ['one', 'two'],
    });
  });

  it('takes the address and the unknown fields without their prefixes', () => {
    expect(extractAddress(raw)).toEqual({ street: 'Herengracht 380' });
    expect(extractUnknownProperties(raw)).toEqual({ ead_archdesc_odd_: 'odd' });
  });

  it('gives every maintenance event a current event type', () => {
    const raw = new RawNode();
    for (const eventType of [
      'update',
      'create',
      'revised',
      undefined,
      'unheard-of',
      'constructor',
      '__proto__',
    ]) {
      raw.addSubNode('MaintenanceEvent', node(eventType === undefined ? { agent: 'x' } : { eventType }));
    }
    expect(extractMaintenanceEvents(raw).map((event) => event.eventType)).toEqual([
      'updated',
      'created',
      'revised',
      'updated',
      'updated',
      'updated',
      'updated',
    ]);
  });

  it('gives dependents ids derived from their owner and position', () => {
    expect(dependents('u1.eng', 'hasDate', 'DatePeriod', [{ startDate: '1939-01-01' }, {}])).toEqual([
      { id: 'u1.eng/hasDate/0', type: 'DatePeriod', data: { startDate: '1939-01-01' }, relations: {} },
      { id: 'u1.eng/hasDate/1', type: 'DatePeriod', data: {}, relations: {} },
    ]);
  });
});

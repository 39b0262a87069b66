import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EHRI_FIXTURES } from '../../../test/support/fixture-paths';
import { storedValue } from './node-properties';

const ALLOWED_NODE_PROPERTIES = path.join(EHRI_FIXTURES, 'mappings', 'allowedNodeProperties.csv');

describe('storedValue', () => {
  it('keeps lists exactly for the fields the reference marks multivalued', () => {
    const rows = readFileSync(ALLOWED_NODE_PROPERTIES, 'utf8').trim().split('\n').slice(1);
    for (const row of rows) {
      const [node, field, , , multivalued] = row.split(',');
      const expected = multivalued === '1' ? ['a', 'b'] : 'a\n\nb';
      expect([node, field, storedValue(node, field, ['a', 'b'])]).toEqual([node, field, expected]);
    }
  });

  it('keeps a single value as it is', () => {
    expect(storedValue('DocumentaryUnitDescription', 'notes', 'one')).toBe('one');
    expect(storedValue('DocumentaryUnitDescription', 'scopeAndContent', 'one')).toBe('one');
  });
});

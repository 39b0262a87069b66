import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EHRI_FIXTURES } from '../../../../test/support/fixture-paths';
import { parseProperties } from '../../parsing/xml/xml-mapping';
import { EAC_PROPERTIES } from './eac-mapping';

const REFERENCE_MAPPING = path.join(EHRI_FIXTURES, 'mappings', 'eac.properties');

describe('the default EAC mapping', () => {
  it('is the reference’s eac.properties', () => {
    const reference = parseProperties(readFileSync(REFERENCE_MAPPING, 'utf8'));

    expect(parseProperties(EAC_PROPERTIES)).toEqual(reference);
    expect(reference.get('entityId/')).toBe('objectIdentifier');
  });
});

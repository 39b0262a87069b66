import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseProperties } from '../../parsing/xml/xml-mapping';
import { EAC_PROPERTIES } from './eac-mapping';

const REFERENCE_MAPPING = path.resolve(
  __dirname,
  '../../../../../shared/fixtures/ehri/mappings/eac.properties',
);

describe('the default EAC mapping', () => {
  it('is the reference’s eac.properties', () => {
    const reference = parseProperties(readFileSync(REFERENCE_MAPPING, 'utf8'));

    expect(parseProperties(EAC_PROPERTIES)).toEqual(reference);
    expect(reference.get('entityId/')).toBe('objectIdentifier');
  });
});

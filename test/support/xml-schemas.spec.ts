import { validateAgainst } from './xml-schemas';

/** The least an EAD 2002 document must hold. */
const MINIMAL_EAD = `<ead xmlns="urn:isbn:1-931666-22-9" xmlns:xlink="http://www.w3.org/1999/xlink">
  <eadheader><eadid>x</eadid><filedesc><titlestmt><titleproper>T</titleproper></titlestmt></filedesc></eadheader>
  <archdesc level="fonds"><did><unittitle>T</unittitle></did></archdesc>
</ead>`;

describe('validateAgainst', () => {
  it('finds a minimal EAD 2002 document valid against ead.xsd, its imports resolved locally', async () => {
    const result = await validateAgainst('ead.xsd', MINIMAL_EAD);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names what is wrong in a document the schema refuses', async () => {
    const result = await validateAgainst('ead.xsd', MINIMAL_EAD.replace('<did>', '<did><nonsense/>'));
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/document\.xml:3: .*nonsense/);
  });
});

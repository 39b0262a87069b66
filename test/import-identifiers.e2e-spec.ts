import { addNamedItem } from '../src/named-items/named-item';
import { addReferenceRepository, ehriFixture, importEadIntoR1 } from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';

/** A finding aid of fonds F: a series S whose files repeat unit ids, and placeholder ids. */
const REPEATED_IDS = `<ead><eadheader><eadid>F</eadid></eadheader>
<archdesc level="fonds"><did><unitid>F</unitid><unittitle>Fonds</unittitle></did><dsc>
<c01><did><unitid>S</unitid><unittitle>Series</unittitle></did>
<c02><did><unitid>C12</unitid><unittitle>First</unittitle></did></c02>
<c02><did><unitid>c12</unitid><unittitle>Second</unittitle></did><c03><did><unitid>X</unitid></did></c03></c02>
<c02><did><unitid>C12.</unitid><unittitle>Third</unittitle></did></c02>
<c02><did><unitid>---</unitid><unittitle>Placeholder</unittitle></did></c02>
</c01></dsc></archdesc></ead>`;

/** The units of REPEATED_IDS. */
const UNITS = 7;

describe('import of units whose ids repeat or are blank', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
    await addReferenceRepository(t);
  });
  afterEach(() => t.close());

  async function storedIds(): Promise<string[]> {
    return (await t.store.read((tx) => tx.subtree('r1'))).map((entry) => entry.id).sort();
  }

  describe('EAD', () => {
    it('refuses the file with 400, naming the repeated id and both places, and writes nothing', async () => {
      const response = await importEadIntoR1(t, REPEATED_IDS, { tag: 'fa.xml' }).expect(400);

      expect(response.body.details).toMatchObject({ tag: 'fa.xml' });
      expect(response.body.details.message).toMatch(
        /^DocumentaryUnit F\/S\/c12\/X in fa.xml, ending at line 5, column \d+: identifier: Parent item has no id: <c02> at line 5: nl-r1-f-s-c12 is already the id of <c02> at line 4; keep both with duplicate-unitid=position$/,
      );
      expect(await storedIds()).toEqual([]);
    });

    it('with tolerant=true, skips the later units and their descendants and reports each: created + errors = units', async () => {
      const response = await importEadIntoR1(t, REPEATED_IDS, { tolerant: 'true' }).expect(201);

      expect(response.body.created_keys['-'].sort()).toEqual(['nl-r1-f', 'nl-r1-f-s', 'nl-r1-f-s-c12']);
      expect(Object.values(response.body.errors)).toEqual([
        expect.stringContaining(
          'Parent item has no id: <c02> at line 5: nl-r1-f-s-c12 is already the id of <c02> at line 4',
        ),
        expect.stringContaining(
          'identifier: <c02> at line 5: nl-r1-f-s-c12 is already the id of <c02> at line 4',
        ),
        expect.stringContaining(
          'identifier: <c02> at line 6: nl-r1-f-s-c12 is already the id of <c02> at line 4',
        ),
        expect.stringContaining('identifier: Missing identifier: unitid "---" slugifies to nothing'),
      ]);
      expect(response.body.created + Object.keys(response.body.errors).length).toBe(UNITS);
      const [first] = (await t.items(['nl-r1-f-s-c12'])).get('nl-r1-f-s-c12')?.relations.describes ?? [];
      expect(first.data.name).toBe('First');

      const again = await importEadIntoR1(t, REPEATED_IDS, { tolerant: 'true' }).expect(201);
      expect(again.body).toMatchObject({
        created: 0,
        updated: 0,
        unchanged: 3,
        errors: response.body.errors,
      });
    });

    it('keeps them all with duplicate-unitid=position and missing-unitid=position, and finds them unchanged again', async () => {
      const query = { 'duplicate-unitid': 'position', 'missing-unitid': 'position' };
      const response = await importEadIntoR1(t, REPEATED_IDS, query).expect(201);

      const ids = ['f', 'f-s', 'f-s-4', 'f-s-c12', 'f-s-c12_2', 'f-s-c12_2-x', 'f-s-c12_3'].map(
        (id) => `nl-r1-${id}`,
      );
      expect(response.body.created_keys['-'].sort()).toEqual(ids);
      expect(response.body.errors).toEqual({});
      const second = (await t.items(['nl-r1-f-s-c12_2'])).get('nl-r1-f-s-c12_2');
      expect(second?.data).toMatchObject({ identifier: 'c12_2', otherIdentifiers: ['c12'] });
      expect(second?.relations.describes?.[0].data.name).toBe('Second');

      const again = await importEadIntoR1(t, REPEATED_IDS, query).expect(201);
      expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: UNITS, errors: {} });
      expect(await storedIds()).toEqual(ids);
    });

    it('refuses an unknown duplicate-unitid', async () => {
      const response = await importEadIntoR1(t, REPEATED_IDS, { 'duplicate-unitid': 'merge' }).expect(400);
      expect(response.body.details.message).toBe(
        'Parameter "duplicate-unitid" must be one of error, position, got "merge"',
      );
    });
  });

  describe('CSV units', () => {
    const TABLE = [
      'objectIdentifier,parentIdentifier,name',
      'S,,Series',
      'C12,S,First',
      'c12,S,Second',
      '---,S,Placeholder',
      'C12,,Elsewhere',
      'X,C12,Child of which C12?',
    ].join('\n');

    function importCsv(query: Record<string, string> = {}) {
      return t
        .post('csv', { scope: 'r1', commit: 'true', ...query })
        .set('Content-Type', 'text/csv')
        .send(TABLE);
    }

    it('refuses a row whose unit repeats an earlier id under the same parent, naming both rows', async () => {
      const response = await importCsv().expect(400);
      expect(response.body.details).toEqual({
        message:
          'CSV row 4, column objectIdentifier: nl-r1-s-c12 is already the id of row 3; keep both with duplicate-unitid=position',
        tag: '-',
        key: 'row 4',
      });

      const tolerant = await importCsv({ tolerant: 'true' }).expect(201);
      expect(tolerant.body.created_keys['-']).toEqual(['nl-r1-s', 'nl-r1-s-c12', 'nl-r1-c12']);
      expect(tolerant.body.errors).toEqual({
        'row 4': expect.stringContaining('nl-r1-s-c12 is already the id of row 3'),
        'row 5':
          'CSV row 5, column objectIdentifier: missing: a unit needs an identifier ("---" slugifies to nothing)',
        'row 7': 'CSV row 7, column parentIdentifier: several rows of the table have the identifier C12',
      });
    });

    it('keeps them with duplicate-unitid=position, and finds them unchanged again', async () => {
      const query = { 'duplicate-unitid': 'position', tolerant: 'true' };
      const response = await importCsv(query).expect(201);
      expect(response.body.created_keys['-']).toEqual([
        'nl-r1-s',
        'nl-r1-s-c12',
        'nl-r1-s-c12_2',
        'nl-r1-c12',
      ]);
      expect(Object.keys(response.body.errors)).toEqual(['row 5', 'row 7']);

      const again = await importCsv(query).expect(201);
      expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    });
  });
});

describe('import of authority records and repositories whose identifier is blank', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
  });
  afterEach(() => t.close());

  it('refuses an EAG repository whose identifier slugifies to nothing', async () => {
    const eag = ehriFixture('eag.xml')
      .toString('utf8')
      .replace('repositorycode="test-repository"', 'repositorycode="---"');
    const response = await t
      .post('eag', { scope: 'nl', commit: 'true', tag: 'eag.xml' })
      .set('Content-Type', 'application/xml')
      .send(eag)
      .expect(400);
    expect(response.body.details.message).toBe(
      'Repository in eag.xml: identifier: missing: a repository needs an identifier ("---" slugifies to nothing)',
    );
  });

  it('refuses an EAC agent whose entityId slugifies to nothing', async () => {
    await addNamedItem(t.store, 'AuthoritativeSet', 'auths');
    const eac = ehriFixture('eac.xml')
      .toString('utf8')
      .replace(/>test-eac<\/entityId>/, '>...</entityId>');
    const response = await t
      .post('eac', { scope: 'auths', commit: 'true' })
      .set('Content-Type', 'application/xml')
      .send(eac)
      .expect(400);
    expect(response.body.details.message).toContain('entityId: missing');
    expect(response.body.details.message).toContain('("..." slugifies to nothing)');
  });

  it('refuses CSV agents whose identifier slugifies to nothing', async () => {
    await addNamedItem(t.store, 'AuthoritativeSet', 'auths');
    const agents = await t
      .post('csv', { scope: 'auths', importer: 'CsvHistoricalAgentImporter', commit: 'true' })
      .set('Content-Type', 'text/csv')
      .send('id,name\n - ,Nobody\n')
      .expect(400);
    expect(agents.body.details.message).toBe(
      'CSV row 2, column id: missing: a HistoricalAgent needs an identifier ("-" slugifies to nothing)',
    );
  });
});

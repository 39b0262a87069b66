import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Bundle } from '../../../items/bundle';
import { ImportContext, ImportInputError, ImportSource, ItemProduced, ReadEvent } from '../format-reader';
import { EagReader } from './eag.reader';
import { EHRI_FIXTURES } from '../../../../test/support/fixture-paths';

const FIXTURES = EHRI_FIXTURES;
const EAG_2012 = path.join(__dirname, 'testdata/eag-2012.xml');

function sourceOf(file: string): ImportSource {
  return {
    tag: path.basename(file),
    async *bytes() {
      yield readFileSync(file);
    },
  };
}

function contextOf(options: { properties?: string; lang?: string } = {}): ImportContext {
  return {
    params: {
      tolerant: false,
      allowUpdate: false,
      lang: options.lang ?? 'eng',
      tag: '-',
      useSourceId: false,
      properties: options.properties,
      query: {},
      limits: { maxDepth: 64, maxIdLength: 1024 },
    },
    scope: {
      bundle: { id: 'nl', type: 'Country', data: {}, relations: {} },
      edges: {},
      hash: '',
      updated: '',
      ancestors: [],
      identifiers: ['nl'],
    },
    user: 'tester',
    store: {} as ImportContext['store'],
  };
}

async function readOne(file: string, context = contextOf()): Promise<ItemProduced> {
  const events: ReadEvent[] = [];
  for await (const event of new EagReader().read(sourceOf(file), context)) events.push(event);
  expect(events).toHaveLength(1);
  expect(events[0].kind).toBe('item');
  return events[0] as ItemProduced;
}

function description(item: ItemProduced): Bundle {
  const [only] = item.write.bundle.relations.describes ?? [];
  return only;
}

describe('EagReader', () => {
  it('reads eag.xml into a repository of the scope country, with its address', async () => {
    const repository = await readOne(path.join(FIXTURES, 'eag.xml'));
    expect(repository.tag).toBe('eag.xml');
    expect(repository.write.bundle).toMatchObject({
      id: 'nl-test_repository',
      type: 'Repository',
      data: { identifier: 'test-repository', typeOfEntity: 'organisation' },
    });
    expect(repository.write.edges).toEqual({ hasCountry: ['nl'], hasPermissionScope: ['nl'] });
    const desc = description(repository);
    expect(desc.id).toBe('nl-test_repository.eng-test_repository_desc');
    expect(desc.data).toEqual({
      creationProcess: 'IMPORT',
      identifier: 'test-repository#desc',
      languageCode: 'eng',
      name: 'Test Repository',
      otherFormsOfName: 'Test Repository - Alt Name',
      openingTimes: '9-5 All week',
      history: 'Example Repository Description',
      accessibility: 'Use public transport',
      holdings: 'Large',
      typeOfEntity: 'organisation',
      rulesAndConventions: 'ISDIAH',
    });
    expect(desc.relations.hasAddress?.map((address) => address.data)).toEqual([
      {
        countryCode: 'NL',
        postalCode: 'ABC 123',
        street: 'Any Street',
        municipality: 'A Town',
        telephone: '12345 678910',
        email: 'info@example.com',
        webpage: 'www.example.com',
      },
    ]);
  });

  it('reads eag-2896.xml as the reference test expects', async () => {
    const repository = await readOne(path.join(FIXTURES, 'eag-2896.xml'));
    expect(repository.write.bundle.id).toBe('nl-nl_002896');
    expect(repository.write.bundle.data).toEqual({
      identifier: 'NL-002896',
      typeOfEntity: 'organisation',
      priority: 5,
    });
    const desc = description(repository);
    expect(desc.data).toMatchObject({
      name: 'NIOD Instituut voor Oorlogs-, Holocaust- en Genocidestudies',
      parallelFormsOfName: 'NIOD Institute for War, Holocaust, and Genocide Studies',
      otherFormsOfName: 'NIOD',
    });
    // Not multivalued: the three notes are one text.
    expect(desc.data.maintenanceNotes).toEqual(
      expect.stringContaining('ICA-AtoM identifier: r001059NL\n\nPriority: 5'),
    );
    expect(desc.relations.hasAddress).toHaveLength(1);
    expect(desc.relations.hasUnknownProperty).toHaveLength(1);
    expect(desc.relations.maintenance?.map((event) => event.data)).toEqual([
      {
        eventType: 'updated',
        date: '2012-03-09',
        agent: ['Bryant', 'Mike'],
        agentType: 'human',
        source: 'Imported from EHRI spreadsheet',
      },
      {
        eventType: 'updated',
        date: '2013-04-16',
        agent: ['Bryant', 'Mike'],
        agentType: 'human',
        source: 'Exported from ICA-AtoM',
      },
    ]);
  });

  it('reads EAG 2012 with its own mapping', async () => {
    const repository = await readOne(EAG_2012);
    expect(repository.write.bundle).toMatchObject({
      id: 'nl-nl_hana',
      data: { identifier: 'NL-HaNA', otherIdentifiers: 'NA', typeOfEntity: 'National archives' },
    });
    const desc = description(repository);
    expect(desc.id).toBe('nl-nl_hana.nld-nl_hana_desc');
    expect(desc.data).toMatchObject({
      languageCode: 'nld',
      name: 'Nationaal Archief',
      parallelFormsOfName: 'National Archives of the Netherlands',
      otherFormsOfName: 'Algemeen Rijksarchief',
      geoculturalContext: 'Europe',
      history: 'The national archives were founded in 1802.',
      openingTimes: 'Tuesday to Friday 9:00-16:45',
      conditions: "A reader's card is required.",
      rulesAndConventions: 'ISDIAH',
    });
    expect(desc.relations.hasAddress?.[0].data).toEqual({
      countryCode: 'NL',
      country: 'Nederland',
      firstdem: 'Zuid-Holland',
      municipality: '2595 BE Den Haag',
      street: 'Prins Willem-Alexanderhof 20',
      telephone: '+31 70 331 54 00',
      fax: '+31 70 331 54 99',
      email: 'info@nationaalarchief.nl',
      webpage: 'https://www.nationaalarchief.nl',
    });
    expect(desc.relations.maintenance?.map((event) => event.data)).toEqual([
      { agent: 'Archives Portal Europe', agentType: 'machine', date: '14 May 2013', eventType: 'created' },
      { agent: 'J. Jansen', agentType: 'human', date: '2 January 2020', eventType: 'updated' },
    ]);
  });

  it('uses the properties parameter for either profile, and fills in what the reference does', async () => {
    const properties = 'identity/autform/=name\n';
    const repository = await readOne(EAG_2012, contextOf({ properties, lang: 'fra' }));
    expect(repository.write.bundle.id).toBe('nl-id');
    expect(description(repository).data).toMatchObject({
      name: 'Nationaal Archief',
      languageCode: 'fra',
      typeOfEntity: 'organisation',
    });
    expect(description(repository).relations.hasAddress).toBeUndefined();
  });

  it('needs a scope', async () => {
    const events = new EagReader().read(sourceOf(EAG_2012), { ...contextOf(), scope: undefined });
    await expect(events[Symbol.asyncIterator]().next()).rejects.toThrow(ImportInputError);
  });
});

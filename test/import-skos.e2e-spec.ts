import { readFileSync } from 'node:fs';
import path from 'node:path';
import { addNamedItem } from '../src/named-items/named-item';
import { StoredItem } from '../src/graph/graph-store';
import { Bundle } from '../src/items/bundle';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { EHRI_FIXTURES } from './support/fixture-paths';

const CVOC = path.join(EHRI_FIXTURES, 'cvoc');
const VOCABULARY = 'cvoc2';

function fixture(name: string): Buffer {
  return readFileSync(path.join(CVOC, name));
}

const SKOS_PREFIXES = `
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix ex: <http://example.org/voc/> .
`;

/** A Turtle vocabulary: one `ex:<id>` concept per entry, with its extra statements. */
function turtle(concepts: Record<string, string>): string {
  const statements = Object.entries(concepts).map(
    ([id, extra]) => `ex:${id} a skos:Concept ; skos:prefLabel "${id}"@en ${extra} .`,
  );
  return SKOS_PREFIXES + statements.join('\n');
}

describe('POST /import/skos', () => {
  let t: ImportTestApp;

  beforeEach(async () => {
    t = await createImportTestApp();
    await addNamedItem(t.store, 'CvocVocabulary', VOCABULARY);
  });
  afterEach(() => t.close());

  function importSkos(body: string | Buffer, query: Record<string, string> = {}, contentType?: string) {
    const post = t.post('skos', { scope: VOCABULARY, commit: 'true', ...query });
    return (contentType === undefined ? post : post.set('Content-Type', contentType)).send(body);
  }

  async function stored(id: string): Promise<StoredItem> {
    const item = (await t.store.read((tx) => tx.getItems([id]))).get(id);
    if (item === undefined) throw new Error(`${id} is not stored`);
    return item;
  }

  /** The item's outgoing edges of `type`; the store omits types without edges. */
  async function edges(id: string, type: 'narrower' | 'related'): Promise<string[]> {
    return (await stored(id)).edges[type] ?? [];
  }

  function descriptions(item: StoredItem): Bundle[] {
    return item.bundle.relations.describes ?? [];
  }

  it('imports simple.n3 as one concept with its labels and notes, in the vocabulary', async () => {
    const response = await importSkos(fixture('simple.n3'), { format: 'N3', tag: 'simple.n3' });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      created: 1,
      created_keys: { 'simple.n3': ['cvoc2-canals'] },
      errors: {},
    });
    const concept = await stored('cvoc2-canals');
    expect(concept.bundle.type).toBe('CvocConcept');
    expect(concept.bundle.data).toMatchObject({ identifier: 'canals', uri: 'http://www.my.com/#canals' });
    expect(concept.edges.inAuthoritativeSet).toEqual([VOCABULARY]);
    expect(concept.edges.hasPermissionScope).toEqual([VOCABULARY]);
    const [description] = descriptions(concept);
    expect(description.id).toBe('cvoc2-canals.eng');
    expect(description.data).toMatchObject({ name: 'canals', languageCode: 'eng' });
    expect(description.data.altLabel).toHaveLength(6);
    expect(description.data.definition).toEqual([expect.stringContaining('Erie Canal')]);
    expect(description.data.scopeNote).toEqual([expect.stringContaining('Manmade waterway')]);
  });

  it('replaces a concept whole on update, dropping the languages the file no longer has', async () => {
    const bilingual = turtle({ a: '; skos:prefLabel "A"@de' });
    await importSkos(bilingual, { format: 'Turtle' }).expect(201);
    expect(descriptions(await stored('cvoc2-a')).map((d) => d.data.languageCode)).toEqual(
      expect.arrayContaining(['eng', 'deu']),
    );

    const response = await importSkos(turtle({ a: '' }), { format: 'Turtle', 'allow-update': 'true' });

    expect(response.body).toMatchObject({ updated: 1, unchanged: 0 });
    expect(descriptions(await stored('cvoc2-a')).map((d) => d.data.languageCode)).toEqual(['eng']);
  });

  it('describes untagged labels in the lang parameter', async () => {
    await importSkos(fixture('simple.n3'), { format: 'n3', lang: 'de' }).expect(201);

    expect(
      descriptions(await stored('cvoc2-canals')).map((description) => description.data.languageCode),
    ).toEqual(['deu']);
  });

  it('reads SKOS-XL labels and reified notes as the plain SKOS ones', async () => {
    await importSkos(fixture('simple-xl.n3'), { format: 'N3' }).expect(201);

    const again = await importSkos(fixture('simple.n3'), { format: 'N3' }).expect(201);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    const [description] = descriptions(await stored('cvoc2-canals'));
    expect(description.data.name).toBe('canals');
    expect(description.data.altLabel).toContain('drainage ditches');
  });

  it('imports repository-types.xml (RDF/XML by default): 23 created, then 23 unchanged', async () => {
    const first = await importSkos(fixture('repository-types.xml')).expect(201);
    expect(first.body).toMatchObject({ created: 23, updated: 0, unchanged: 0 });

    const second = await importSkos(fixture('repository-types.xml')).expect(201);
    expect(second.body).toMatchObject({ created: 0, updated: 0, unchanged: 23 });
  });

  it('turns skos:broader and skos:narrower into narrower edges from the broader concept', async () => {
    await importSkos(fixture('repository-types.xml')).expect(201);

    // other-archives states two of its narrower concepts; the other two only state it as broader.
    expect(await edges('cvoc2-other_archives_term', 'narrower')).toEqual([
      'cvoc2-archives_of_economical_bodies_and_firms_term',
      'cvoc2-archives_of_political_parties_foundations_term',
      'cvoc2-family_archives_term',
      'cvoc2-other_archives_2_term',
    ]);
    expect(await edges('cvoc2-family_archives_term', 'narrower')).toEqual([]);
  });

  it('strips baseURI and suffix from URIs to get local ids', async () => {
    const response = await importSkos(fixture('repository-types.xml'), {
      baseURI: 'http://icaatom.ehri-project.eu/index.php/',
      suffix: ';term',
    }).expect(201);

    expect(response.body.created).toBe(23);
    expect((await stored('cvoc2-other_archives')).bundle.data.identifier).toBe('other-archives');
    expect(await edges('cvoc2-other_archives', 'narrower')).toContain('cvoc2-other_archives_2');
  });

  it('imports camps.rdf: 8 concepts, relations only between concepts that exist', async () => {
    const response = await importSkos(fixture('camps.rdf'), {}, 'application/rdf+xml').expect(201);

    expect(response.body).toMatchObject({ created: 8, errors: {} });
    // 648 and 675 state the same relation from both sides: one edge.
    expect(await edges('cvoc2-648', 'narrower')).toEqual(['cvoc2-675']);
    // 353's narrower concepts are a literal and a concept outside the file: no edge.
    expect(await edges('cvoc2-353', 'narrower')).toEqual([]);
  });

  it('imports geonames.ttl: 3 concepts, coordinates, seeAlso and every alternative label', async () => {
    const response = await importSkos(fixture('geonames.ttl'), { format: 'Turtle' }).expect(201);

    expect(response.body.created).toBe(3);
    const lorestan = await stored('cvoc2-125605');
    expect(lorestan.bundle.data).toMatchObject({ identifier: '125605', latitude: '33.5', longitude: '48.5' });
    expect(lorestan.bundle.data.seeAlso).toHaveLength(3);
    const [description] = descriptions(lorestan);
    expect(description.data).toMatchObject({ name: 'Ostān-e Lorestān', languageCode: 'eng' });
    // One description: the alternative labels of every language, each once.
    expect(description.data.altLabel).toHaveLength(15);
  });

  it('chooses the syntax from the Content-Type when no format is given', async () => {
    const response = await importSkos(fixture('geonames.ttl'), {}, 'text/turtle').expect(201);

    expect(response.body.created).toBe(3);
  });

  it('accepts the reference names of formats in any case, and media types', async () => {
    const ntriples =
      '<http://example.org/voc/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2004/02/skos/core#Concept> .\n' +
      '<http://example.org/voc/a> <http://www.w3.org/2004/02/skos/core#prefLabel> "A"@en .\n';
    await importSkos(ntriples, { format: 'n-triples' }).expect(201);
    await importSkos(turtle({ b: '' }), { format: 'ttl' }).expect(201);
    const jsonLd = JSON.stringify({
      '@id': 'http://example.org/voc/c',
      '@type': 'http://www.w3.org/2004/02/skos/core#Concept',
      'http://www.w3.org/2004/02/skos/core#prefLabel': { '@value': 'C', '@language': 'en' },
    });
    await importSkos(jsonLd, { format: 'application/ld+json' }).expect(201);

    const ids = await t.store.read((tx) => tx.getTypes(['cvoc2-a', 'cvoc2-b', 'cvoc2-c']));
    expect([...ids.keys()].sort()).toEqual(['cvoc2-a', 'cvoc2-b', 'cvoc2-c']);
  });

  it('refuses an unknown format with 400, naming it', async () => {
    const response = await importSkos(fixture('simple.n3'), { format: 'RDF/YAML' }).expect(400);

    expect(JSON.stringify(response.body.details)).toContain('Unknown RDF format: RDF/YAML');
  });

  it('answers 400 with the tag and line for a syntax error, and writes nothing', async () => {
    const broken = turtle({ a: '' }) + '\nex:b a skos:Concept ; skos:prefLabel "unterminated .\n';
    const response = await importSkos(broken, { format: 'Turtle', tag: 'broken.ttl' }).expect(400);

    expect(response.body.details).toMatchObject({ tag: 'broken.ttl', line: expect.any(Number) });
    expect(response.body.details.message).toContain('broken.ttl');
    expect((await t.store.read((tx) => tx.getTypes(['cvoc2-a']))).size).toBe(0);
  });

  it('never fetches a remote JSON-LD context', async () => {
    const jsonLd = JSON.stringify({
      '@context': 'http://127.0.0.1:9/context.jsonld',
      '@id': 'http://example.org/x',
    });
    const response = await importSkos(jsonLd, { format: 'JSON-LD' }).expect(400);

    expect(response.body.details.message).toContain('remote JSON-LD contexts are not fetched');
  });

  it('changes nothing on a dry run, but answers what would happen', async () => {
    const response = await importSkos(fixture('camps.rdf'), { commit: 'false' }).expect(201);

    expect(response.body.created).toBe(8);
    expect((await t.store.read((tx) => tx.getTypes(['cvoc2-648']))).size).toBe(0);
  });

  it('makes one description per prefLabel language and script, with that language’s fields', async () => {
    const body = turtle({
      multi: `; skos:prefLabel "Multi"@de, "Мулти"@sr-Cyrl ; skos:altLabel "Alt en"@en, "Alt de"@de ;
        skos:definition "Def sr"@sr-Cyrl`,
    });
    await importSkos(body, { format: 'Turtle' }).expect(201);

    const byId = new Map(descriptions(await stored('cvoc2-multi')).map((d) => [d.id, d.data]));
    expect([...byId.keys()].sort()).toEqual(['cvoc2-multi.deu', 'cvoc2-multi.eng', 'cvoc2-multi.srp-cyrl']);
    expect(byId.get('cvoc2-multi.eng')).toMatchObject({ name: 'multi', altLabel: ['Alt en'] });
    expect(byId.get('cvoc2-multi.deu')).toMatchObject({ name: 'Multi', altLabel: ['Alt de'] });
    expect(byId.get('cvoc2-multi.srp-cyrl')).toMatchObject({ identifier: 'cyrl', definition: ['Def sr'] });
  });

  it('refuses a concept without local id or with two labels in one language, naming it and the field', async () => {
    const body =
      SKOS_PREFIXES +
      '<http://example.org/> a skos:Concept ; skos:prefLabel "Root"@en .\n' +
      'ex:twice a skos:Concept ; skos:prefLabel "One"@en, "Two"@en .\n' +
      'ex:fine a skos:Concept ; skos:prefLabel "Fine"@en .\n';

    const strict = await importSkos(body, { format: 'Turtle' }).expect(400);
    expect(strict.body.details.message).toContain(
      'Concept http://example.org/: identifier: no local identifier',
    );

    const tolerant = await importSkos(body, { format: 'Turtle', tolerant: 'true' }).expect(201);
    expect(tolerant.body.created).toBe(1);
    expect(tolerant.body.errors).toEqual({
      'http://example.org/': expect.stringContaining('identifier'),
      'http://example.org/voc/twice': expect.stringMatching(
        /prefLabel: more than one prefLabel in language eng/,
      ),
    });
  });

  describe('relations kept in step with the file', () => {
    it('replaces a concept’s relations with those of the new file', async () => {
      await importSkos(turtle({ a: '; skos:broader ex:b', b: '', c: '; skos:related ex:a' }), {
        format: 'Turtle',
      });
      expect(await edges('cvoc2-b', 'narrower')).toEqual(['cvoc2-a']);

      const update = await importSkos(turtle({ a: '; skos:broader ex:c', b: '', c: '' }), {
        format: 'Turtle',
        'allow-update': 'true',
      }).expect(201);

      expect(update.body.updated).toBe(2);
      expect(await edges('cvoc2-b', 'narrower')).toEqual([]);
      expect(await edges('cvoc2-c', 'narrower')).toEqual(['cvoc2-a']);
      expect(await edges('cvoc2-c', 'related')).toEqual([]);
    });

    it('links to concepts of the vocabulary outside the file, and unlinks them again', async () => {
      await importSkos(turtle({ parent: '', other: '' }), { format: 'Turtle' }).expect(201);

      await importSkos(turtle({ child: '; skos:broader ex:parent ; skos:related ex:other, ex:nowhere' }), {
        format: 'Turtle',
      }).expect(201);
      expect(await edges('cvoc2-parent', 'narrower')).toEqual(['cvoc2-child']);
      expect(await edges('cvoc2-child', 'related')).toEqual(['cvoc2-other']);

      await importSkos(turtle({ child: '' }), { format: 'Turtle', 'allow-update': 'true' }).expect(201);
      expect(await edges('cvoc2-parent', 'narrower')).toEqual([]);
      expect(await edges('cvoc2-child', 'related')).toEqual([]);
    });
  });
});

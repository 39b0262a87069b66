import { ImportInputError, ImportSource } from '../format-reader';
import { resolveRdfFormat } from './rdf-format';
import { readRdfGraph } from './rdf-graph';

const SKOS = 'http://www.w3.org/2004/02/skos/core#';
const PREF_LABEL = `${SKOS}prefLabel`;
const NOTATION = `${SKOS}notation`;

function source(tag: string, ...chunks: (string | Uint8Array)[]): ImportSource {
  return {
    tag,
    async *bytes() {
      for (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    },
  };
}

async function parseError(promise: Promise<unknown>): Promise<ImportInputError> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!(error instanceof ImportInputError))
    throw new Error(`expected an ImportInputError, got ${String(error)}`);
  return error;
}

const TURTLE = resolveRdfFormat('Turtle', undefined);
const RDF_XML = resolveRdfFormat(undefined, undefined);

describe('readRdfGraph', () => {
  it('groups the kept triples by subject and drops the others', async () => {
    const text = `<http://ex/a> <${PREF_LABEL}> "A"@EN-gb ; <${NOTATION}> "1" .
      <http://ex/b> <${PREF_LABEL}> "B" .`;

    const graph = await readRdfGraph(source('t.ttl', text), TURTLE, new Set([PREF_LABEL]));

    expect([...graph.subjects()]).toEqual(['http://ex/a', 'http://ex/b']);
    expect(graph.objects('http://ex/a', PREF_LABEL)).toEqual([
      { kind: 'literal', value: 'A', language: 'en-gb', datatype: expect.stringContaining('langString') },
    ]);
    expect(graph.objects('http://ex/a', NOTATION)).toEqual([]);
  });

  it('stops reading the source when the document fails early', async () => {
    const state = { taken: 0, closed: false };
    const endless: ImportSource = {
      tag: 'bad.ttl',
      async *bytes() {
        try {
          yield Buffer.from('this is not Turtle .\n');
          // Far more than a parser reads ahead; a reading that goes on to the end takes it all.
          while (state.taken < 100_000) {
            state.taken += 1;
            yield Buffer.from(`<http://ex/${state.taken}> <${PREF_LABEL}> "filler" .\n`);
          }
        } finally {
          state.closed = true;
        }
      },
    };
    await parseError(readRdfGraph(endless, TURTLE, new Set([PREF_LABEL])));
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.closed).toBe(true);
    expect(state.taken).toBeLessThan(100_000);
  });

  it('keeps a UTF-8 character split between two chunks whole', async () => {
    const bytes = Buffer.from(`<http://ex/a> <${PREF_LABEL}> "Pölitz" .`, 'utf8');
    const split = bytes.indexOf(0xc3) + 1;

    const graph = await readRdfGraph(
      source('t.ttl', bytes.subarray(0, split), bytes.subarray(split)),
      TURTLE,
      new Set([PREF_LABEL]),
    );

    expect(graph.objects('http://ex/a', PREF_LABEL)).toMatchObject([{ value: 'Pölitz' }]);
  });

  it('reads RDF/XML in the encoding its declaration names', async () => {
    const xml =
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n' +
      `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:skos="${SKOS}">` +
      '<rdf:Description rdf:about="http://ex/a"><skos:prefLabel>B\u00f6hlerwerk</skos:prefLabel></rdf:Description>' +
      '</rdf:RDF>';

    const graph = await readRdfGraph(
      source('t.rdf', Buffer.from(xml, 'latin1')),
      RDF_XML,
      new Set([PREF_LABEL]),
    );

    expect(graph.objects('http://ex/a', PREF_LABEL)).toMatchObject([{ value: 'Böhlerwerk' }]);
  });

  it('fails with the tag and line of a Turtle syntax error', async () => {
    const error = await parseError(
      readRdfGraph(
        source('bad.ttl', '<http://ex/a> <http://ex/p> "x" .\n<http://ex/b> junk .'),
        TURTLE,
        new Set(),
      ),
    );

    expect(error.where).toMatchObject({ tag: 'bad.ttl', line: 2 });
    expect(error.message).toMatch(/^Cannot parse bad\.ttl as Turtle at line 2: /);
  });

  it('fails with the tag, line and column of an RDF/XML syntax error', async () => {
    const xml =
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n<rdf:Description>\n</rdf:RDF>';

    const error = await parseError(readRdfGraph(source('bad.rdf', xml), RDF_XML, new Set()));

    expect(error.where).toMatchObject({ tag: 'bad.rdf', line: 3, column: expect.any(Number) });
  });

  it('fails on bytes that are not UTF-8', async () => {
    const text = Buffer.concat([
      Buffer.from(`<http://ex/a> <${PREF_LABEL}> "`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('" .'),
    ]);

    const error = await parseError(readRdfGraph(source('latin.ttl', text), TURTLE, new Set([PREF_LABEL])));

    expect(error.where.tag).toBe('latin.ttl');
  });
});

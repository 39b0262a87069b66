import { EHRI_FIXTURES } from '../../test/support/fixture-paths';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  BlankSegmentError,
  childId,
  descriptionId,
  isUsableIdentifier,
  joinPath,
  slugify,
} from './identifiers';

const HIERARCHICAL_EAD = path.join(EHRI_FIXTURES, 'hierarchical-ead.xml');

/** The `<unitid>`s and the `<eadid>` of a fixture, in document order. */
function eadIdentifiers(file: string): { unitIds: string[]; eadId: string } {
  const xml = readFileSync(file, 'utf8');
  const textOf = (element: string) =>
    Array.from(xml.matchAll(new RegExp(`<${element}[^>]*>([^<]*)</${element}>`, 'g')), ([, text]) =>
      text.trim(),
    );
  return { unitIds: textOf('unitid'), eadId: textOf('eadid')[0] };
}

describe('slugify', () => {
  it.each([
    ['test-doc', 'test_doc'],
    ['foo/bar', 'foo_bar'],
    ['__foo-bad__', 'foo_bad'],
    ['-foo-bad-', 'foo_bad'],
    ['foo---bad', 'foo_bad'],
    ['Καλημέρα κόσμε', 'καλημέρα_κόσμε'],
    ['ארכיון יד ושם', 'ארכיון_יד_ושם'],
    ['Кіровоградська районна', 'кіровоградська_районна'],
    [`hello "'|:/?#[]@*+,;=%<>{}~-() world`, 'hello_world'],
  ])('slugifies %p as the reference does (%p)', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it('replaces Unicode punctuation of every kind', () => {
    expect(slugify('a«b»c—d‘e’f¿g…h·i・j„k')).toBe('a_b_c_d_e_f_g_h_i_j_k');
  });

  it('replaces = + < > ~ | although they are symbols, not punctuation', () => {
    expect(slugify('a=b+c<d>e~f|g')).toBe('a_b_c_d_e_f_g');
  });

  it('keeps other symbols', () => {
    expect(slugify('a$b^c`d€e©f')).toBe('a$b^c`d€e©f');
  });

  it('collapses runs of white space and replacements into one _', () => {
    expect(slugify('a \t\n\r\f\v b . / c')).toBe('a_b_c');
  });

  it('trims leading and trailing replacements', () => {
    expect(slugify('  (Fonds 1)  ')).toBe('fonds_1');
    expect(slugify(' - ')).toBe('');
  });

  it('keeps white space that Java does not count as \\s (no-break and ideographic spaces)', () => {
    expect(slugify('a\u00a0b\u3000c\u2028d')).toBe('a\u00a0b\u3000c\u2028d');
  });

  it('lower-cases like Java outside the Turkish locale', () => {
    expect(slugify('İSTANBUL ÄÖÜ ß')).toBe('i̇stanbul_äöü_ß');
  });

  it('lower-cases the capital sigma as Java does, whose words run across _ between letters', () => {
    expect(slugify('ΟΔΟΣ ΑΒ')).toBe('οδοσ_αβ');
    expect(slugify('ΑΡΧΕΙΟ ΣΑΣ')).toBe('αρχειο_σας');
    expect(slugify('ΦΑΚΕΛΟΣ 12')).toBe('φακελος_12');
    expect(slugify('ΦΑΚΕΛΟΣ12Α')).toBe('φακελοσ12α');
    expect(slugify('Σ')).toBe('σ');
  });
});

describe('joinPath', () => {
  it('joins slugified segments with -', () => {
    expect(joinPath(['nl', 'r1', 'test-doc'])).toBe('nl-r1-test_doc');
  });

  it('strips from each segment the previous segment when it starts with it', () => {
    const { unitIds } = eadIdentifiers(HIERARCHICAL_EAD);
    const [fonds, subfonds, series, , file] = unitIds;
    expect([fonds, subfonds, series, file]).toEqual(['Ctop_level_fonds', 'C00001', 'C00002', 'C00002-2']);

    expect(joinPath(['nl', 'r1', fonds, subfonds, series, file])).toBe(
      'nl-r1-ctop_level_fonds-c00001-c00002-2',
    );
  });

  it.each([
    [
      ['r1', 'Fonds 1', 'Fonds 1 / Subfonds 1', 'Fonds 1 / Subfonds 1 / Item 3'],
      'r1-fonds_1-subfonds_1-item_3',
    ],
    [['il-002798', 'M.40', 'M.40.MAP'], 'il_002798-m_40-map'],
    [['de-002409', 'DE ITS 1.1.0', 'DE ITS 1.1.0.2', '2399000'], 'de_002409-de_its_1_1_0-2-2399000'],
    [
      [
        'cz-002279',
        'COLLECTION.JMP.SHOAH/T',
        'COLLECTION.JMP.SHOAH/T/2',
        'COLLECTION.JMP.SHOAH/T/2/A',
        'COLLECTION.JMP.SHOAH/T/2/A/1',
        'COLLECTION.JMP.SHOAH/T/2/A/1a',
        'COLLECTION.JMP.SHOAH/T/2/A/1a/028',
        'DOCUMENT.JMP.SHOAH/T/2/A/1a/028',
      ],
      'cz_002279-collection_jmp_shoah_t-2-a-1-a-028-document_jmp_shoah_t_2_a_1a_028',
    ],
  ])('strips prefixes as the reference does: %j', (segments, expected) => {
    expect(joinPath(segments)).toBe(expected);
  });

  it('compares the raw segments, case-sensitively, before slugifying', () => {
    expect(joinPath(['de-002409', 'DE ITS 1.1.0', 'de ITS 1.1.0.2', '2399000'])).toBe(
      'de_002409-de_its_1_1_0-de_its_1_1_0_2-2399000',
    );
    expect(joinPath(['r1', 'a b', 'a_bc'])).toBe('r1-a_b-a_bc');
  });

  it('keeps a segment equal to the previous one', () => {
    expect(joinPath(['r1', 'Fonds 1', 'Thing 1', 'Thing 1', 'Thing 2'])).toBe(
      'r1-fonds_1-thing_1-thing_1-thing_2',
    );
    expect(joinPath(['de-002409', 'DE ITS 1.1.0', '1.1.0', '1.1.0', '2399000'])).toBe(
      'de_002409-de_its_1_1_0-1_1_0-1_1_0-2399000',
    );
  });

  it('compares each segment with the previous raw segment, not with what was left of it', () => {
    expect(joinPath(['A', 'AB', 'ABC'])).toBe('a-b-c');
    expect(joinPath(['A', 'AB', 'BC'])).toBe('a-b-bc');
  });

  it('keeps hierarchies that differ in where - falls apart', () => {
    expect(joinPath(['r1', '1-a', 'b'])).not.toBe(joinPath(['r1', '1', 'a-b']));
  });

  it('keeps the whole segment where losing the prefix would leave nothing', () => {
    expect(joinPath(['nl', 'r1', 'C1', 'C1-'])).toBe('nl-r1-c1-c1');
    expect(joinPath(['nl', 'r1', 'C1', 'C1 ...'])).toBe('nl-r1-c1-c1');
  });

  it.each(['---', '...', '-', ' ', '', '(  )'])(
    'refuses a segment that slugifies to nothing (%p)',
    (blank) => {
      expect(() => joinPath(['nl', 'r1', blank])).toThrow(BlankSegmentError);
      expect(() => joinPath(['nl', blank, 'c1'])).toThrow(BlankSegmentError);
      expect(() => childId('nl-r1-c1', 'c1', blank)).toThrow(BlankSegmentError);
    },
  );
});

describe('isUsableIdentifier', () => {
  it.each(['---', '...', '-', ' \t ', '', '«»', '_|_'])('counts %p as missing', (blank) => {
    expect(isUsableIdentifier(blank)).toBe(false);
  });

  it('counts a missing identifier as missing', () => {
    expect(isUsableIdentifier(undefined)).toBe(false);
  });

  it.each(['0', 'C1', '-1-', '€', 'a\u00a0'])('takes %p, whose slug is not empty', (identifier) => {
    expect(isUsableIdentifier(identifier)).toBe(true);
  });
});

describe('descriptionId', () => {
  it('appends the language code and the slugified description identifier', () => {
    const { unitIds, eadId } = eadIdentifiers(HIERARCHICAL_EAD);
    const [fonds, subfonds, series, , file] = unitIds;
    const itemId = joinPath(['nl', 'r1', fonds, subfonds, series, file]);
    // The reference's EAD importer identifies a description by its source file id: <eadid>#<LANG>.
    const sourceFileId = `${eadId}#ENG`;

    expect(descriptionId(itemId, 'eng', sourceFileId)).toBe(
      'nl-r1-ctop_level_fonds-c00001-c00002-2.eng-test_desc_id_eng',
    );
  });

  it('matches the reference example', () => {
    expect(descriptionId(joinPath(['nl', 'r1', 'c1']), 'eng', 'someid-01')).toBe('nl-r1-c1.eng-someid_01');
  });

  it('is the item id and language code alone without an identifier', () => {
    expect(descriptionId('nl-r1-test_doc', 'deu')).toBe('nl-r1-test_doc.deu');
  });

  it('ignores an identifier whose slug is blank to Java', () => {
    expect(descriptionId('nl-r1-test_doc', 'eng', '')).toBe('nl-r1-test_doc.eng');
    expect(descriptionId('nl-r1-test_doc', 'eng', ' -- ')).toBe('nl-r1-test_doc.eng');
    expect(descriptionId('nl-r1-test_doc', 'eng', '\u0001')).toBe('nl-r1-test_doc.eng');
  });

  it('keeps an identifier that Java does not trim away', () => {
    expect(descriptionId('nl-r1-test_doc', 'eng', '\u00a0')).toBe('nl-r1-test_doc.eng-\u00a0');
  });

  it('does not slugify the language code', () => {
    expect(descriptionId('c1', 'ENG', 'x')).toBe('c1.ENG-x');
  });
});

describe('childId', () => {
  it.each([
    ['C00002', 'C00002-2'],
    ['C00002', 'C00002'],
    ['Fonds 12', 'Fonds 12/3 (b)'],
    ['C1', 'C1-'],
    ['C1', 'C1 (copy)'],
  ])('gives %s / %s the id joinPath gives the whole path', (parent, child) => {
    expect(childId(joinPath(['nl', 'r1', parent]), parent, child)).toBe(
      joinPath(['nl', 'r1', parent, child]),
    );
  });
});

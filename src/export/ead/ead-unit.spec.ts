import { Bundle } from '../../items/bundle';
import { unitDates } from './ead-dates';
import { levelAttributes, unitContent } from './ead-unit';
import { markup } from './xml-tree';

function description(data: Bundle['data'], relations: Bundle['relations'] = {}): Bundle {
  return {
    id: 'u.eng',
    type: 'DocumentaryUnitDescription',
    data: { languageCode: 'eng', ...data },
    relations,
  };
}

function date(data: Record<string, string>): Bundle {
  return { id: 'd', type: 'DatePeriod', data, relations: {} };
}

const UNIT: Bundle = {
  id: 'u',
  type: 'DocumentaryUnit',
  data: { identifier: 'U1', otherIdentifiers: ['X'] },
  relations: {},
};

describe('unitContent', () => {
  it('writes identifiers, title and the text fields where the import reads them, split where it joined them', () => {
    const text = markup(
      unitContent(
        UNIT,
        description({ name: 'A title', scopeAndContent: 'First.\n\nSecond.', notes: ['n1', 'n2'] }),
        'ead',
        'c01',
      ),
      0,
    );
    expect(text).toContain('<unitid>U1</unitid>');
    expect(text).toContain('<unitid>X</unitid>');
    expect(text).toContain('<unittitle>A title</unittitle>');
    expect(text).toMatch(
      /<scopecontent>\s*<p>First.<\/p>\s*<\/scopecontent>\s*<scopecontent>\s*<p>Second.<\/p>/,
    );
    expect(text).toMatch(/<odd>\s*<p>n1<\/p>\s*<\/odd>\s*<odd>\s*<p>n2<\/p>\s*<\/odd>/);
  });

  it('puts unmapped elements back at their path below the unit, beside mapped ones', () => {
    const unknown: Bundle = {
      id: 'x',
      type: 'UnknownProperty',
      data: {
        ead_archdesc_dsc_c01_did_physdesc_dimensions_: '10 cm',
        ead_archdesc_dsc_c01_did_container_: ['1', '2'],
      },
      relations: {},
    };
    const root = unitContent(
      UNIT,
      description({ extentAndMedium: '2 boxes' }, { hasUnknownProperty: [unknown] }),
      'ead',
      'c01',
    );
    const text = markup(root, 0);
    expect(text).toMatch(
      /<physdesc>\s*<extent>2 boxes<\/extent>\s*<dimensions>10 cm<\/dimensions>\s*<\/physdesc>/,
    );
    expect(text).toMatch(/<container>1<\/container>\s*<container>2<\/container>/);
    expect(
      markup(unitContent(UNIT, description({}, { hasUnknownProperty: [unknown] }), 'ead3', 'c01'), 0),
    ).not.toContain('container');
  });

  it('writes access points of the types the import reads, EAD3 names in a part', () => {
    const point = (type: string, name: string): Bundle => ({
      id: name,
      type: 'AccessPoint',
      data: { type, name },
      relations: {},
    });
    const relatesTo = [point('subject', 'S'), point('creator', 'C'), point('associative', 'A')];
    const ead = markup(unitContent(UNIT, description({}, { relatesTo }), 'ead', 'archdesc'), 0);
    expect(ead).toContain('<subject>S</subject>');
    expect(ead).toMatch(/<origination>\s*<persname>C<\/persname>/);
    expect(ead).not.toContain('>A<');
    const ead3 = markup(unitContent(UNIT, description({}, { relatesTo }), 'ead3', 'archdesc'), 0);
    expect(ead3).toMatch(/<subject>\s*<part>S<\/part>\s*<\/subject>/);
  });

  it('escapes markup and drops characters XML cannot carry', () => {
    const text = markup(unitContent(UNIT, description({ name: 'a < b & "c"\u0001' }), 'ead', 'c01'), 0);
    expect(text).toContain('<unittitle>a &lt; b &amp; "c"</unittitle>');
  });
});

describe('levelAttributes', () => {
  it("keeps the schema's levels, names others in otherlevel, and falls back when asked", () => {
    expect(levelAttributes(description({ levelOfDescription: 'fonds' }))).toEqual([['level', 'fonds']]);
    expect(levelAttributes(description({ levelOfDescription: 'box' }))).toEqual([
      ['level', 'otherlevel'],
      ['otherlevel', 'box'],
    ]);
    expect(levelAttributes(description({}), 'otherlevel')).toEqual([['level', 'otherlevel']]);
    expect(levelAttributes(description({}))).toEqual([]);
  });
});

describe('unitDates', () => {
  it('writes periods with a normal value the import reads back as the same period', () => {
    const period = {
      startDate: '1939-01-01',
      endDate: '1945-12-31',
      precision: 'year',
      type: 'creation',
      description: '1939-1945',
    };
    expect(unitDates(description({}, { hasDate: [date(period)] }))).toEqual([
      { text: '1939-1945', normal: '1939/1945' },
    ]);
  });

  it('keeps the date texts no period was made of, each read back as it was', () => {
    const period = {
      startDate: '1924-01-01',
      endDate: '1947-12-31',
      precision: 'day',
      type: 'creation',
      description: '1924-1-1 - 1947-12-31',
    };
    const dates = unitDates(description({ unitDates: 'sometime' }, { hasDate: [date(period)] }));
    expect(dates.map((unitDate) => unitDate.text)).toEqual(['1924-1-1 - 1947-12-31', 'sometime']);
    expect(dates[1].normal).toBeUndefined();
  });
});

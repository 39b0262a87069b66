import { Bundle, Props } from './bundle';
import { itemHash, itemHashWith, mergeDescriptions, sameContent, writeHash } from './change-detection';
import { descriptionId } from './identifiers';

const UNIT_ID = 'nl-r1-c00001';

function node(type: Bundle['type'], data: Props, relations: Bundle['relations'] = {}, id = ''): Bundle {
  return { id, type, data, relations };
}

/** A unit with one description that has a date and two access points, as an EAD import makes it. */
function sampleUnit(): Bundle {
  return node(
    'DocumentaryUnit',
    { identifier: 'C00001', otherIdentifiers: ['old-1', 'old-2'] },
    {
      describes: [
        node(
          'DocumentaryUnitDescription',
          { identifier: '1#ENG', sourceFileId: '1#ENG', languageCode: 'eng', name: 'Correspondence' },
          {
            hasDate: [node('DatePeriod', { startDate: '1941-01-01', endDate: '1943-12-31' }, {}, 'date-1')],
            relatesTo: [
              node('AccessPoint', { name: 'Amsterdam', type: 'place' }, {}, 'ap-1'),
              node('AccessPoint', { name: 'Joodse Raad', type: 'corporateBody' }, {}, 'ap-2'),
            ],
          },
          `${UNIT_ID}.eng-1_eng`,
        ),
      ],
    },
    UNIT_ID,
  );
}

function description(unit: Bundle): Bundle {
  return unit.relations.describes![0];
}

/** A deep copy with every node id replaced, every list of dependents reversed and every key order reversed. */
function reshuffled(bundle: Bundle): Bundle {
  const relations = Object.fromEntries(
    Object.entries(bundle.relations)
      .reverse()
      .map(([relation, dependents]) => [relation, [...dependents].reverse().map(reshuffled)]),
  );
  const data = Object.fromEntries(Object.entries(bundle.data).reverse());
  return { relations, data, type: bundle.type, id: `other-${bundle.id}` };
}

describe('itemHash and sameContent', () => {
  function expectSame(a: Bundle, b: Bundle): void {
    expect(sameContent(a, b)).toBe(true);
    expect(itemHash(a)).toBe(itemHash(b));
  }

  function expectDifferent(a: Bundle, b: Bundle): void {
    expect(sameContent(a, b)).toBe(false);
    expect(itemHash(a)).not.toBe(itemHash(b));
  }

  it('is a compact text hash', () => {
    expect(itemHash(sampleUnit())).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('ignores node ids, the order of dependents and the order of keys', () => {
    expectSame(sampleUnit(), reshuffled(sampleUnit()));
  });

  it('treats an empty list of dependents as no dependents', () => {
    const unit = sampleUnit();
    expectSame(unit, { ...unit, relations: { ...unit.relations, hasAddress: [] } });
  });

  it('ignores managed (_-prefixed) properties, as the reference does', () => {
    const unit = sampleUnit();
    expectSame(unit, { ...unit, data: { ...unit.data, _lastUpdated: '2024-01-01T00:00:00Z' } });
  });

  it('sees a changed value deep down', () => {
    const changed = sampleUnit();
    description(changed).relations.relatesTo![1].data.name = 'Joodse Raad Amsterdam';
    expectDifferent(sampleUnit(), changed);
  });

  it('sees an added, a removed and a duplicated dependent', () => {
    const accessPoints = description(sampleUnit()).relations.relatesTo!;
    const withAccessPoints = (list: Bundle[]): Bundle => {
      const unit = sampleUnit();
      description(unit).relations.relatesTo = list;
      return unit;
    };
    const extra = node('AccessPoint', { name: 'Westerbork', type: 'place' });
    expectDifferent(sampleUnit(), withAccessPoints([...accessPoints, extra]));
    expectDifferent(sampleUnit(), withAccessPoints(accessPoints.slice(1)));
    expectDifferent(
      withAccessPoints([accessPoints[0]]),
      withAccessPoints([accessPoints[0], accessPoints[0]]),
    );
  });

  it('sees a dependent moved to another relation or another owner', () => {
    const moved = sampleUnit();
    const desc = description(moved);
    desc.relations.hasUnknownProperty = desc.relations.hasDate;
    delete desc.relations.hasDate;
    expectDifferent(sampleUnit(), moved);

    const hoisted = sampleUnit();
    hoisted.relations.hasDate = description(hoisted).relations.hasDate;
    delete description(hoisted).relations.hasDate;
    expectDifferent(sampleUnit(), hoisted);
  });

  it('sees a changed node type', () => {
    const unit = sampleUnit();
    expectDifferent(unit, { ...unit, type: 'HistoricalAgent' });
  });

  it('keeps the order of values inside a list property', () => {
    const unit = sampleUnit();
    expectDifferent(unit, { ...unit, data: { ...unit.data, otherIdentifiers: ['old-2', 'old-1'] } });
  });

  it('tells value types apart', () => {
    expectDifferent(node('DatePeriod', { precision: 1 }), node('DatePeriod', { precision: '1' }));
    expectDifferent(node('DatePeriod', { precision: true }), node('DatePeriod', { precision: 'true' }));
    expectDifferent(node('DatePeriod', { precision: ['a'] }), node('DatePeriod', { precision: 'a' }));
  });

  it('cannot be fooled by values that contain the delimiters of another encoding', () => {
    expectDifferent(node('AccessPoint', { a: 'x', b: 'y' }), node('AccessPoint', { a: 'x1:bs1:y' }));
    expectDifferent(node('AccessPoint', { a: 'x', b: 'y' }), node('AccessPoint', { a: 'x","b":"y' }));
    expectDifferent(node('AccessPoint', { a: ['x', 'y'] }), node('AccessPoint', { a: ['x,y'] }));
    expectDifferent(node('AccessPoint', { ab: 'c' }), node('AccessPoint', { a: 'bc' }));
  });
});

describe('itemHashWith', () => {
  it('hashes the content together with the extra text, ignoring ids and orders as itemHash does', () => {
    const hash = itemHashWith(sampleUnit(), '6:heldBy1:2:r1');
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(itemHashWith(reshuffled(sampleUnit()), '6:heldBy1:2:r1')).toBe(hash);
    expect(hash).not.toBe(itemHash(sampleUnit()));
    expect(itemHashWith(sampleUnit(), '6:heldBy1:2:r2')).not.toBe(hash);
  });

  it('cannot be fooled by extra text that looks like content', () => {
    const withTitle = node('AccessPoint', { a: 'x' });
    const withoutTitle = node('AccessPoint', {});
    expect(itemHashWith(withoutTitle, '1:as1:x')).not.toBe(itemHashWith(withTitle, ''));
  });
});

describe('writeHash', () => {
  it('is the itemHash of a write without edges, and sees the edges otherwise, in any order', () => {
    expect(writeHash(sampleUnit(), undefined)).toBe(itemHash(sampleUnit()));
    expect(writeHash(sampleUnit(), {})).toBe(itemHash(sampleUnit()));
    const hash = writeHash(sampleUnit(), { heldBy: ['r1'], childOf: ['a', 'b'] });
    expect(writeHash(reshuffled(sampleUnit()), { childOf: ['b', 'a'], heldBy: ['r1'] })).toBe(hash);
    expect(writeHash(sampleUnit(), { heldBy: ['r1'], childOf: ['a'] })).not.toBe(hash);
    expect(writeHash(sampleUnit(), { heldBy: ['r1'] })).not.toBe(itemHash(sampleUnit()));
  });
});

describe('mergeDescriptions', () => {
  function germanDescription(sourceFileId: string, name: string): Bundle {
    const data = { identifier: sourceFileId, sourceFileId, languageCode: 'deu', name };
    return node('DocumentaryUnitDescription', data, {}, descriptionId(UNIT_ID, 'deu', sourceFileId));
  }

  function unitWith(descriptions: Bundle[], data: Props = { identifier: 'C00001' }): Bundle {
    return node('DocumentaryUnit', data, { describes: descriptions }, UNIT_ID);
  }

  function namesOf(unit: Bundle): string[] {
    return (unit.relations.describes ?? []).map((d) => String(d.data.name)).sort();
  }

  const english = description(sampleUnit());

  // The reference's EadDescriptionUpdateTest: English, then German, then German again.
  it('adds a description in a new language and replaces the one in the same language', () => {
    const afterGerman = mergeDescriptions(
      unitWith([english]),
      unitWith([germanDescription('2#DEU', 'Briefe')]),
      {
        useSourceId: false,
      },
    );
    expect(namesOf(afterGerman)).toEqual(['Briefe', 'Correspondence']);

    const afterGermanAgain = mergeDescriptions(
      afterGerman,
      unitWith([germanDescription('2#DEU', 'Korrespondenz')]),
      {
        useSourceId: false,
      },
    );
    expect(namesOf(afterGermanAgain)).toEqual(['Correspondence', 'Korrespondenz']);
  });

  it('replaces a same-language description from another source file without useSourceId', () => {
    const merged = mergeDescriptions(
      unitWith([english, germanDescription('2#DEU', 'Briefe')]),
      unitWith([germanDescription('3#DEU', 'Akten')]),
      { useSourceId: false },
    );
    expect(namesOf(merged)).toEqual(['Akten', 'Correspondence']);
  });

  it('with useSourceId, keeps a same-language description from another source file', () => {
    const existing = unitWith([english, germanDescription('2#DEU', 'Briefe')]);
    const merged = mergeDescriptions(existing, unitWith([germanDescription('3#DEU', 'Akten')]), {
      useSourceId: true,
    });
    expect(namesOf(merged)).toEqual(['Akten', 'Briefe', 'Correspondence']);

    const again = mergeDescriptions(merged, unitWith([germanDescription('3#DEU', 'Akten II')]), {
      useSourceId: true,
    });
    expect(namesOf(again)).toEqual(['Akten II', 'Briefe', 'Correspondence']);
  });

  it('with useSourceId, never replaces a description that has no source file id', () => {
    const withoutSource = node('DocumentaryUnitDescription', { languageCode: 'deu', name: 'Ohne Quelle' });
    const merged = mergeDescriptions(
      unitWith([withoutSource]),
      unitWith([germanDescription('2#DEU', 'Briefe')]),
      {
        useSourceId: true,
      },
    );
    expect(namesOf(merged)).toEqual(['Briefe', 'Ohne Quelle']);
  });

  it('never replaces a description without a language code', () => {
    const withoutLanguage = node('DocumentaryUnitDescription', { name: 'Unknown language' });
    const incomingWithoutLanguage = node('DocumentaryUnitDescription', { name: 'Also unknown' });
    const merged = mergeDescriptions(unitWith([withoutLanguage]), unitWith([incomingWithoutLanguage]), {
      useSourceId: false,
    });
    expect(namesOf(merged)).toEqual(['Also unknown', 'Unknown language']);
  });

  it('keeps the ids of the descriptions it keeps and takes the item data from the incoming bundle', () => {
    const merged = mergeDescriptions(
      unitWith([english], { identifier: 'C00001', otherIdentifiers: ['gone'] }),
      unitWith([germanDescription('2#DEU', 'Briefe')], { identifier: 'C00001' }),
      { useSourceId: false },
    );
    expect(merged.data).toEqual({ identifier: 'C00001' });
    expect(merged.relations.describes!.map((d) => d.id).sort()).toEqual([
      `${UNIT_ID}.deu-2_deu`,
      `${UNIT_ID}.eng-1_eng`,
    ]);
  });

  it('is unchanged content when the same data is imported again', () => {
    const existing = sampleUnit();
    const merged = mergeDescriptions(existing, reshuffled(sampleUnit()), { useSourceId: false });
    expect(sameContent(merged, existing)).toBe(true);
  });

  it('does not modify its arguments', () => {
    const existing = unitWith([english]);
    const incoming = unitWith([germanDescription('2#DEU', 'Briefe')]);
    mergeDescriptions(existing, incoming, { useSourceId: false });
    expect(namesOf(existing)).toEqual(['Correspondence']);
    expect(namesOf(incoming)).toEqual(['Briefe']);
  });
});

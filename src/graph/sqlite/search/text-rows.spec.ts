import { ITEM_TYPES } from '../../../items/item-types';
import {
  ridOfTextRow,
  STORED_TYPE_CODES,
  textRow,
  TYPE_MASK,
  typeCodeOfTextRow,
  typeCodes,
} from './text-rows';

describe('text rows', () => {
  it('give back the rid and type code they were numbered from, beyond 32-bit row numbers', () => {
    for (const rid of [1, 2, 1_000_003, 2 ** 40 + 7]) {
      for (const type of ITEM_TYPES) {
        const row = textRow(rid, type);
        expect(ridOfTextRow(row)).toBe(rid);
        expect(typeCodeOfTextRow(row)).toBe(typeCodes([type])[0]);
      }
    }
  });
});

describe('stored type codes', () => {
  it('never change: every store numbers its full-text rows with them', () => {
    // Written out on purpose: a code that moves makes type filters wrong on every existing store.
    expect(STORED_TYPE_CODES).toEqual({
      Country: 0,
      Repository: 1,
      DocumentaryUnit: 2,
      HistoricalAgent: 3,
      AuthoritativeSet: 4,
      CvocVocabulary: 5,
      CvocConcept: 6,
      Link: 7,
      UserProfile: 8,
    });
  });

  it('are distinct and fit the row numbering', () => {
    const codes = Object.values(STORED_TYPE_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    expect(Math.max(...codes)).toBeLessThanOrEqual(TYPE_MASK);
  });
});

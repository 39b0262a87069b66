import { ITEM_TYPES } from '../../../items/item-types';
import { ridOfTextRow, textRow, typeCodeOfTextRow, typeCodes } from './text-rows';

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

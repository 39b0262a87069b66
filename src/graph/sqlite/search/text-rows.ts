import { ItemType } from '../../../items/item-types';

/**
 * Full-text rows are numbered `rid * 16 + type code`, so that a search filters by item type on the
 * row number alone, inside the full-text index, without reading the items it rejects.
 */
const TYPE_BITS = 4;
export const TYPE_MASK = (1 << TYPE_BITS) - 1;

/**
 * The stored type codes. They are written into every store's full-text row numbers, so a code
 * never changes once given: a new item type takes the next free code, never a place in the list
 * (text-rows.spec.ts fails if a code moves). Typed by `ItemType`, a type without a code does not compile.
 */
export const STORED_TYPE_CODES: Readonly<Record<ItemType, number>> = Object.freeze({
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

const TYPE_CODES: ReadonlyMap<string, number> = new Map(Object.entries(STORED_TYPE_CODES));

if (Math.max(...TYPE_CODES.values()) > TYPE_MASK)
  throw new Error('Too many item types for the full-text row numbering');

/** The code of an item type. */
export function typeCode(type: string): number {
  const code = TYPE_CODES.get(type);
  if (code === undefined) throw new Error(`"${type}" is not an item type`);
  return code;
}

export function textRow(rid: number | bigint, type: string): number {
  return textRowOfCode(Number(rid), typeCode(type));
}

/** The text row of the item with rid `rid` and type code `code`. */
export function textRowOfCode(rid: number, code: number): number {
  return rid * (TYPE_MASK + 1) + code;
}

/** The rid of the item a text row belongs to. */
export function ridOfTextRow(row: number): number {
  return Math.floor(row / (TYPE_MASK + 1));
}

/** The type code of a text row's item. */
export function typeCodeOfTextRow(row: number): number {
  return row % (TYPE_MASK + 1);
}

/** A type code as a bit, so that a set of codes is one number (`typeCodeBits`). */
export function typeBit(code: number): number {
  return 1 << code;
}

/** The type code of a text row's item as a bit. */
export function typeBitOfTextRow(row: number): number {
  return typeBit(typeCodeOfTextRow(row));
}

/** Type codes as the bits of one number (`typeBit`). */
export function typeCodeBits(codes: readonly number[]): number {
  return codes.reduce((bits, code) => bits | typeBit(code), 0);
}

/** The codes of the known types among `types`. */
export function typeCodes(types: readonly string[]): number[] {
  return types.flatMap((type) => TYPE_CODES.get(type) ?? []);
}

/** The text rows of the items whose rids lie in [firstRid, lastRid]. */
export function textRowRange(firstRid: number, lastRid: number): { firstRow: number; lastRow: number } {
  return { firstRow: firstRid * (TYPE_MASK + 1), lastRow: lastRid * (TYPE_MASK + 1) + TYPE_MASK };
}

/** SQL for the rid of a text row. */
export const RID_OF_ROW = `>> ${TYPE_BITS}`;

/**
 * Where each field of a unit's description goes in an exported finding aid: the inverse of the
 * import's EAD 2002 mapping (`src/import/formats/ead/ead2002-mapping.ts`), one element path per
 * field, relative to the unit's element. Where the mapping reads a field from several paths
 * (`notes` from `did/note/p` and `odd/p`), the one the reference's exporter writes is taken: the
 * import reads every value back into the same field, in the same order.
 */

export type EadVersion = 'ead' | 'ead3';
export const EAD_VERSIONS: readonly EadVersion[] = ['ead', 'ead3'];

/** Text fields by the element path their values are written to, in the order they are written. */
const TEXT_FIELDS: readonly (readonly [field: string, path: readonly string[]])[] = [
  ['abstract', ['did', 'abstract']],
  ['extentAndMedium', ['did', 'physdesc', 'extent']],
  ['scopeAndContent', ['scopecontent', 'p']],
  ['systemOfArrangement', ['arrangement', 'p']],
  ['biographicalHistory', ['bioghist', 'p']],
  ['archivalHistory', ['custodhist', 'p']],
  ['acquisition', ['acqinfo', 'p']],
  ['appraisal', ['appraisal', 'p']],
  ['accruals', ['accruals', 'p']],
  ['conditionsOfAccess', ['accessrestrict', 'p']],
  ['conditionsOfReproduction', ['userestrict', 'p']],
  ['physicalCharacteristics', ['phystech', 'p']],
  ['findingAids', ['otherfindaid', 'p']],
  ['locationOfOriginals', ['originalsloc', 'p']],
  ['locationOfCopies', ['altformavail', 'p']],
  ['relatedUnitsOfDescription', ['relatedmaterial', 'p']],
  ['separatedUnitsOfDescription', ['separatedmaterial', 'p']],
  ['publicationNote', ['bibliography', 'p']],
  ['notes', ['odd', 'p']],
  ['archivistNote', ['processinfo', 'p']],
  ['datesOfDescriptions', ['processinfo', 'p', 'date']],
  ['sources', ['processinfo', 'p', 'bibref']],
  ['ref', ['processinfo', 'note', 'p']],
];

/**
 * EAD3 has no `extent` in `physdesc` (its text is the extent), no `note` in `processinfo` and no
 * `bibref` in a paragraph.
 */
const EAD3_PATHS: Readonly<Record<string, readonly string[]>> = {
  extentAndMedium: ['did', 'physdesc'],
  ref: ['processinfo', 'p', 'ref'],
  sources: ['bibliography', 'bibref'],
};

export function textFields(version: EadVersion): (readonly [string, readonly string[]])[] {
  return TEXT_FIELDS.map(([field, path]) => [field, (version === 'ead3' && EAD3_PATHS[field]) || path]);
}

/** Access point types by the element the import reads them from (`controlaccess/<element>`). */
export const ACCESS_POINT_ELEMENTS: Readonly<Record<string, string>> = {
  subject: 'subject',
  person: 'persname',
  family: 'famname',
  corporateBody: 'corpname',
  place: 'geogname',
  genre: 'genreform',
};

/** Creators come from `did/origination/persname` (or `corpname`, `name`: all read alike). */
export const CREATOR = 'creator';
export const CREATOR_PATH = ['did', 'origination', 'persname'];

/** The values of the `level` attribute the EAD schemas allow; others go to `otherlevel`. */
export const LEVELS: ReadonlySet<string> = new Set([
  'class',
  'collection',
  'file',
  'fonds',
  'item',
  'otherlevel',
  'recordgrp',
  'series',
  'subfonds',
  'subgrp',
  'subseries',
]);

/** Elements that open a unit (the import's `archdesc`, `c`, `c01`–`c12`). */
export function isUnitElement(name: string): boolean {
  return name === 'archdesc' || /^c(\d\d)?$/.test(name);
}

/** A unit's element at `depth` below the exported unit: numbered as far as EAD numbers them. */
export function unitElement(depth: number): string {
  if (depth === 0) return 'archdesc';
  return depth <= 12 ? `c${String(depth).padStart(2, '0')}` : 'c';
}

export const NAMESPACES: Readonly<Record<EadVersion, string>> = {
  ead: 'urn:isbn:1-931666-22-9',
  ead3: 'http://ead3.archivists.org/schema/',
};

export const SCHEMA_LOCATIONS: Readonly<Record<EadVersion, string>> = {
  ead: 'urn:isbn:1-931666-22-9 http://www.loc.gov/ead/ead.xsd',
  ead3: 'http://ead3.archivists.org/schema/ https://www.loc.gov/ead/ead3.xsd',
};

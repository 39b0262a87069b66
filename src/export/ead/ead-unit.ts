import { Bundle, PropValue, Props } from '../../items/bundle';
import { ACCESS_POINT_TYPE, IDENTIFIER, NAME, OTHER_IDENTIFIERS } from '../../items/ontology';
import { storedValue } from '../../import/building/node-properties';
import { unitDates } from './ead-dates';
import {
  ACCESS_POINT_ELEMENTS,
  CREATOR,
  CREATOR_PATH,
  EadVersion,
  isUnitElement,
  LEVELS,
  textFields,
} from './ead-fields';
import { element, place, setAttribute, XmlElement } from './xml-tree';

const LEVEL_OF_DESCRIPTION = 'levelOfDescription';
const LANGUAGE_OF_MATERIAL = 'languageOfMaterial';
/** Values the import joins into one text where a field holds one value (`storedValue`). */
const FLATTENED_SEPARATOR = '\n\n';

function values(value: PropValue | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/**
 * The separate element texts a field's stored value was read from: a list's values, or the parts
 * of a text the import joined because the field holds one value.
 */
function elementTexts(field: string, value: PropValue | undefined): string[] {
  const texts = values(value);
  if (texts.length !== 1) return texts;
  const joined = storedValue('DocumentaryUnitDescription', field, ['a', 'b']);
  return typeof joined === 'string' ? texts[0].split(FLATTENED_SEPARATOR) : texts;
}

/** Writes each text to a successive occurrence of the element at `path`. */
function putTexts(root: XmlElement, path: readonly string[], texts: readonly string[]): void {
  texts.forEach((text, occurrence) => {
    place(root, path, occurrence).text = text;
  });
}

/** The unit element's `level` attribute(s): the stored level, or `otherlevel` naming it. */
export function levelAttributes(description: Bundle | undefined, fallback?: string): [string, string][] {
  const level = description === undefined ? undefined : values(description.data[LEVEL_OF_DESCRIPTION])[0];
  if (level === undefined) return fallback === undefined ? [] : [['level', fallback]];
  return LEVELS.has(level)
    ? [['level', level]]
    : [
        ['level', 'otherlevel'],
        ['otherlevel', level],
      ];
}

/** An access point's name as EAD 3 writes it (in a `part`) or EAD 2002 (as the element's text). */
function putName(target: XmlElement, name: string, version: EadVersion): void {
  if (version === 'ead3') target.children.push(element('part', [], name));
  else target.text = name;
}

function addAccessPoints(root: XmlElement, description: Bundle, version: EadVersion): void {
  const byPath = new Map<string, { path: string[]; names: string[] }>();
  for (const accessPoint of description.relations.relatesTo ?? []) {
    const type = String(accessPoint.data[ACCESS_POINT_TYPE] ?? '');
    const name = accessPoint.data[NAME];
    const tag = ACCESS_POINT_ELEMENTS[type];
    // Only the types the import reads from a finding aid have an element to go to.
    if (typeof name !== 'string' || (tag === undefined && type !== CREATOR)) continue;
    const path = type === CREATOR ? CREATOR_PATH : ['controlaccess', tag];
    const key = path.join('/');
    const entry = byPath.get(key) ?? { path, names: [] };
    entry.names.push(name);
    byPath.set(key, entry);
  }
  for (const { path, names } of byPath.values()) {
    names.forEach((name, occurrence) => putName(place(root, path, occurrence), name, version));
  }
}

/**
 * The unmapped elements the import kept (`hasUnknownProperty`, keyed by the element's path in its
 * finding aid, `ead_archdesc_did_physdesc_dimensions_`), put back at their path below the unit, so
 * that reading the export keeps them the same. Only where the unit's own path in the export is the
 * one it had (a finding aid exported as it was imported) are the keys read back unchanged.
 */
function addUnknownProperties(root: XmlElement, description: Bundle): void {
  for (const dependent of description.relations.hasUnknownProperty ?? []) {
    for (const [key, value] of Object.entries(dependent.data)) {
      if (!key.endsWith('_')) continue;
      const segments = key.slice(0, -1).split('_');
      let unit = segments.length - 1;
      while (unit >= 0 && !isUnitElement(segments[unit])) unit--;
      if (unit < 0) continue;
      const path = segments.slice(unit + 1);
      if (path.length === 0) {
        root.text = values(value).join(' ');
        continue;
      }
      putTexts(root, path, values(value));
    }
  }
}

/** Puts each element's `head` first, where the EAD schemas want it. */
function headsFirst(target: XmlElement): void {
  const heads = target.children.filter((child) => child.name === 'head');
  if (heads.length > 0 && target.children[0].name !== 'head') {
    target.children = [...heads, ...target.children.filter((child) => child.name !== 'head')];
  }
  for (const child of target.children) headsFirst(child);
}

/**
 * The content of one unit's element, its components aside: `did` first, then the description's
 * text fields, access points and, in EAD 2002, the unmapped elements it was imported with. The
 * root element's name is the unit's; its children are what is written inside it.
 */
export function unitContent(
  unit: Bundle,
  description: Bundle | undefined,
  version: EadVersion,
  elementName: string,
): XmlElement {
  const root = element(elementName);
  const data: Props = description?.data ?? {};
  const did = place(root, ['did']);
  const identifier = unit.data[IDENTIFIER];
  const identifiers = [...values(identifier), ...values(unit.data[OTHER_IDENTIFIERS])];
  putTexts(root, ['did', 'unitid'], identifiers);
  const name = values(data[NAME])[0] ?? values(identifier)[0];
  if (name !== undefined) place(root, ['did', 'unittitle']).text = name;
  if (description !== undefined) {
    unitDates(description).forEach((date, occurrence) => {
      const unitdate = place(root, ['did', 'unitdate'], occurrence);
      unitdate.text = date.text;
      if (date.normal !== undefined) setAttribute(unitdate, 'normal', date.normal);
    });
  }
  values(data[LANGUAGE_OF_MATERIAL]).forEach((code, occurrence) => {
    setAttribute(place(root, ['did', 'langmaterial', 'language'], occurrence), 'langcode', code);
  });
  if (description !== undefined) addAccessPoints(root, description, version);
  for (const [field, path] of textFields(version)) putTexts(root, path, elementTexts(field, data[field]));
  if (version === 'ead' && description !== undefined) addUnknownProperties(root, description);
  if (did.children.length === 0) did.children.push(element('unittitle'));
  headsFirst(root);
  // Access points come after the other description elements, as the reference writes them.
  const access = root.children.filter((child) => child.name === 'controlaccess');
  root.children = [...root.children.filter((child) => child.name !== 'controlaccess'), ...access];
  return root;
}

import { Bundle, PropValue } from '../../items/bundle';
import { LANGUAGE_CODE, NAME, SOURCE_FILE_ID } from '../../items/ontology';
import { EadVersion, NAMESPACES, SCHEMA_LOCATIONS } from './ead-fields';
import { escapeText, startTag, textElement } from './xml-tree';

/** What a finding aid's header says: of the exported unit, its description and its holder. */
export interface HeaderFacts {
  unitId: string;
  /** The exported unit's chosen description, if it has any. */
  description: Bundle | undefined;
  /** The name of the repository that holds it, if known. */
  holderName: string | undefined;
  /** The language of description (ISO 639-2/T). */
  language: string;
  /** When the export was made. */
  now: Date;
}

const AGENT = 'Archival data service export';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

function texts(value: PropValue | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/** The English name of a language code, or the code where ICU knows none. */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

function line(depth: number, markup: string): string {
  return `${'  '.repeat(depth)}${markup}\n`;
}

/**
 * The root element's start and the header: EAD 2002's `eadheader`, EAD3's `control`. The fields
 * the import reads from the header onto the top unit's description come from the exported unit's
 * description: its source file id (`eadid`), its language (`langusage`), its rules and
 * conventions (`descrules`) and its process information (`titlestmt/author`).
 */
export function documentStart(version: EadVersion, facts: HeaderFacts, declaration: boolean): string {
  const data = facts.description?.data ?? {};
  const title = texts(data[NAME])[0] ?? facts.unitId;
  const sourceFileId = texts(data[SOURCE_FILE_ID])[0];
  const language = texts(data[LANGUAGE_CODE])[0] ?? facts.language;
  const rules = texts(data.rulesAndConventions);
  const authors = texts(data.processInfo);
  let text = declaration ? '<?xml version="1.0" encoding="UTF-8"?>\n' : '';
  text += `${startTag('ead', [
    ['xmlns', NAMESPACES[version]],
    ['xmlns:xsi', XSI],
    ['xsi:schemaLocation', SCHEMA_LOCATIONS[version]],
  ])}\n`;
  const titlestmt = [
    line(3, textElement('titleproper', title)),
    ...authors.map((author) => line(3, textElement('author', author))),
  ].join('');
  const filedesc =
    line(2, '<filedesc>') +
    line(2, '  <titlestmt>') +
    titlestmt +
    line(2, '  </titlestmt>') +
    (facts.holderName === undefined
      ? ''
      : line(3, `<publicationstmt>${textElement('publisher', facts.holderName)}</publicationstmt>`)) +
    line(2, '</filedesc>');
  const iso = facts.now.toISOString();
  if (version === 'ead') {
    text += line(1, startTag('eadheader', [['langencoding', 'iso639-2t']]));
    text += line(2, textElement('eadid', sourceFileId, [['identifier', facts.unitId]]));
    text += filedesc;
    text += line(2, '<profiledesc>');
    const normal = iso.slice(0, 10).replace(/-/g, '');
    text += line(
      3,
      `<creation>${escapeText(AGENT)} ${textElement('date', iso, [['normal', normal]])}</creation>`,
    );
    text += line(
      3,
      `<langusage>${textElement('language', languageName(language), [['langcode', language]])}</langusage>`,
    );
    if (rules.length > 0) text += line(3, textElement('descrules', rules.join(' ')));
    text += line(2, '</profiledesc>');
    text += line(1, '</eadheader>');
    return text;
  }
  text += line(1, '<control>');
  text += line(2, textElement('recordid', sourceFileId ?? facts.unitId));
  text += filedesc;
  text += line(2, '<maintenancestatus value="derived"/>');
  text += line(
    2,
    `<maintenanceagency>${textElement('agencyname', facts.holderName ?? AGENT)}</maintenanceagency>`,
  );
  text += line(2, '<languagedeclaration>');
  text += line(3, textElement('language', languageName(language), [['langcode', language]]));
  text += line(3, textElement('script', 'Latin', [['scriptcode', 'Latn']]));
  text += line(2, '</languagedeclaration>');
  for (const rule of rules) {
    text += line(2, `<conventiondeclaration>${textElement('citation', rule)}</conventiondeclaration>`);
  }
  text += line(2, '<maintenancehistory>');
  text += line(3, '<maintenanceevent>');
  text += line(4, '<eventtype value="derived"/>');
  text += line(4, textElement('eventdatetime', iso, [['standarddatetime', iso]]));
  text += line(4, '<agenttype value="machine"/>');
  text += line(4, textElement('agent', AGENT));
  text += line(3, '</maintenanceevent>');
  text += line(2, '</maintenancehistory>');
  text += line(1, '</control>');
  return text;
}

export const DOCUMENT_END = '</ead>\n';

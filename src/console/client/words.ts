/**
 * Plain words for what the service names by its internal paths: where a change happened
 * (`describes[nl-r1-x.eng-x_eng].extentAndMedium` → "English description → Extent and medium") and
 * what an import's outcome was.
 */

/** The dependents' relation names, as an operator calls them. */
const RELATIONS: Record<string, string> = {
  describes: 'description',
  relatesTo: 'Access point',
  hasDate: 'Date',
  hasAddress: 'Address',
  maintenanceEvent: 'Maintenance event',
  hasMaintenanceEvent: 'Maintenance event',
  hasUnknownProperty: 'Other property',
};

/** Field names the splitting of camelCase words would spell badly. */
const FIELDS: Record<string, string> = {
  languageCode: 'Language',
  unitDates: 'Dates',
  url: 'URL',
  webpage: 'Web page',
};

const languages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** `extentAndMedium` → "Extent and medium". */
export function fieldWords(name: string): string {
  if (FIELDS[name]) return FIELDS[name];
  const words = name
    .replace(/^_+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The language of a description by its id's last part (`….eng-c00001_eng` → "English"). */
function languageOf(dependentId: string): string | undefined {
  const last = dependentId.slice(dependentId.lastIndexOf('.') + 1);
  const code = /^([a-z]{2,3})(?:-|$)/.exec(last)?.[1];
  if (code === undefined) return undefined;
  try {
    return languages.of(code);
  } catch {
    return undefined;
  }
}

function dependentWords(relation: string, id: string): string {
  if (relation === 'describes') {
    const language = languageOf(id);
    return language ? `${language} description` : 'Description';
  }
  return RELATIONS[relation] ?? fieldWords(relation);
}

/**
 * A change's path in plain words: each dependent by what it is (a description by its language),
 * each field by its name spelled out, an edge by its type, joined by arrows.
 */
export function pathWords(path: string): string {
  const edge = /^edges\.(.+)$/.exec(path);
  if (edge) return `Link: ${fieldWords(edge[1]).toLowerCase()}`;
  const parts: string[] = [];
  // A dependent is `relation[id]`; ids hold dots, so they are read bracket to bracket.
  const step = /([A-Za-z_][\w]*)(?:\[([^\]]*)\])?\.?/y;
  let match: RegExpExecArray | null;
  while (step.lastIndex < path.length && (match = step.exec(path)) !== null) {
    parts.push(match[2] === undefined ? fieldWords(match[1]) : dependentWords(match[1], match[2]));
  }
  return step.lastIndex >= path.length && parts.length > 0 ? parts.join(' → ') : path;
}

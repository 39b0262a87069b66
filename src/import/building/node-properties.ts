/**
 * Which description fields may hold several values (the "multivalued" column of the reference's
 * `allowedNodeProperties.csv`). Any other field that receives several values is flattened into one
 * text, the values separated by a blank line, as the reference does.
 */
const MULTIVALUED_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  DocumentaryUnitDescription: new Set([
    'creationDate',
    'locationOfCopies',
    'locationOfOriginals',
    'physicalLocation',
    'creators',
    'subjects',
    'unitDates',
    'notes',
    'languageOfMaterial',
    'scriptOfMaterial',
    'processInfo',
    'sources',
    'relatedUnitsOfDescription',
    'separatedUnitsOfDescription',
    'maintenanceEvent',
  ]),
  HistoricalAgentDescription: new Set([
    'source',
    'otherFormsOfName',
    'place',
    'maintenanceEvent',
    'otherFormsOfFirstName',
    'otherFormsOfLastName',
  ]),
  RepositoryDescription: new Set(['otherFormsOfName']),
};

const FLATTENED_VALUE_SEPARATOR = '\n\n';

/** A field's values as stored on a description of `type`: a list only where the type allows it. */
export function storedValue(type: string, field: string, value: string | string[]): string | string[] {
  if (typeof value === 'string' || MULTIVALUED_FIELDS[type]?.has(field) === true) return value;
  return value.join(FLATTENED_VALUE_SEPARATOR);
}

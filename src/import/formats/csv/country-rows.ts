import { countryBundle, isCountryCode } from '../../../items/countries';
import { IDENTIFIER } from '../../../items/ontology';
import { storedValue } from '../../building/node-properties';
import { ImportInputError, ReadEvent } from '../format-reader';
import { CsvRow, csvRowRejection } from './csv-row';
import { RowImporter, RowSettings } from './row-importer';

/** The columns holding a country's code. */
const COUNTRY_CODE = 'countryCode';
const KEY_COLUMNS = [COUNTRY_CODE, IDENTIFIER];

/**
 * Country report fields by column; the reference's portal names the last two `dataSummary` and
 * `dataExtensive`, which are taken too.
 */
const REPORT_FIELDS: ReadonlyMap<string, string> = new Map([
  ['abstract', 'abstract'],
  ['history', 'history'],
  ['situation', 'situation'],
  ['summary', 'summary'],
  ['dataSummary', 'summary'],
  ['extensive', 'extensive'],
  ['dataExtensive', 'extensive'],
]);

/**
 * Country reports from CSV rows: a row keyed by country code (`countryCode`) gives the country's
 * report fields, which replace the ones it had (so a report is changed by importing its country
 * again, with `allow-update`, as any update). A column that is neither is refused, so that a
 * misspelt field is not silently lost.
 */
export class CountryRows implements RowImporter {
  constructor(settings: RowSettings) {
    const unknown = settings.fields.find(
      (field) => !KEY_COLUMNS.includes(field) && !REPORT_FIELDS.has(field),
    );
    if (unknown !== undefined) {
      const known = [COUNTRY_CODE, ...REPORT_FIELDS.keys()].join(', ');
      throw new ImportInputError(`A country report has no field "${unknown}"; its columns are ${known}`, {
        tag: settings.tag,
        key: 'row 1',
      });
    }
  }

  event(row: CsvRow): ReadEvent {
    const code = KEY_COLUMNS.map((column) => row.node.first(column)).find((value) => value !== undefined);
    if (code === undefined)
      return csvRowRejection(row, COUNTRY_CODE, 'missing: a report names its country by code');
    if (!isCountryCode(code)) {
      return csvRowRejection(row, COUNTRY_CODE, `"${code}" is not an ISO 3166-1 alpha-2 country code`);
    }
    const bundle = countryBundle(code);
    for (const [column, value] of row.node.values) {
      const field = REPORT_FIELDS.get(column);
      if (field !== undefined) bundle.data[field] = storedValue('Country', field, value);
    }
    return { kind: 'item', tag: row.tag, write: { bundle } };
  }
}

import { Bundle } from '../../items/bundle';
import * as schema from './attribute-schemas';
import { Localisation, text } from './attribute-values';
import { portalType } from './portal-type';

/** Country report fields, imported with `/import/csv`, served when present. */
const REPORT_FIELDS = ['abstract', 'history', 'situation', 'summary', 'extensive'] as const;

function countryAttributes(bundle: Bundle, localisation: Localisation): Record<string, unknown> {
  const { data } = bundle;
  const attributes: Record<string, unknown> = {
    identifier: text(data, 'identifier'),
    name: localisation.names.country(bundle.id) ?? text(data, 'name'),
  };
  for (const field of REPORT_FIELDS) attributes[field] = text(data, field);
  return attributes;
}

/** A country: its name in the answer's language and its report; the `country` facet names its codes. */
export const COUNTRY = portalType({
  type: 'Country',
  searched: true,
  attributes: countryAttributes,
  schema: schema.attributes('A country and its report fields (imported with /import/csv)', {
    identifier: schema.text('ISO 3166-1 alpha-2 code, lower case'),
    name: schema.text('Name of the country, in the language of the answer'),
    abstract: schema.text('Report: abstract'),
    history: schema.text('Report: history'),
    situation: schema.text('Report: archival situation'),
    summary: schema.text('Report: summary'),
    extensive: schema.text('Report: extensive summary'),
  }),
  facets: [
    {
      field: 'country',
      name: 'Country',
      key: 'countryCode',
      valueName: (value, naming) => naming.names.country(value),
    },
  ],
});

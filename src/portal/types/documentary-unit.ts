import { Bundle } from '../../items/bundle';
import { toLanguageCode } from '../../items/languages';
import * as schema from './attribute-schemas';
import { Localisation, descriptions, languageAttributes, named, text, texts } from './attribute-values';
import { portalType } from './portal-type';

/** Unit description attributes that follow the title and extent, in the reference's order. */
const TEXT_FIELDS = {
  biographicalHistory: 'biographicalHistory',
  archivalHistory: 'archivalHistory',
  acquisition: 'acquisition',
  scopeAndContent: 'scopeAndContent',
  appraisal: 'appraisal',
  accruals: 'accruals',
  systemOfArrangement: 'systemOfArrangement',
} as const;

/** A unit's attributes: every description, best language first, as the reference writes them. */
function unitAttributes(bundle: Bundle, localisation: Localisation): Record<string, unknown> {
  return {
    localId: text(bundle.data, 'identifier'),
    alternateIds: texts(bundle.data, 'otherIdentifiers'),
    descriptions: descriptions(bundle, 'DocumentaryUnitDescription', localisation).map(({ data }) => {
      const description: Record<string, unknown> = {
        localId: text(data, 'identifier'),
        ...languageAttributes(data, localisation),
        name: text(data, 'name'),
        parallelFormsOfName: texts(data, 'parallelFormsOfName'),
        extentAndMedium: text(data, 'extentAndMedium'),
        unitDates: texts(data, 'unitDates'),
      };
      for (const [field, key] of Object.entries(TEXT_FIELDS)) description[field] = text(data, key);
      description.languageOfMaterials = named(texts(data, 'languageOfMaterial'), (code) =>
        localisation.names.language(toLanguageCode(code) ?? code),
      );
      description.scriptOfMaterials = named(texts(data, 'scriptOfMaterial'), (code) =>
        localisation.names.script(code),
      );
      return description;
    }),
  };
}

const DESCRIPTION_SCHEMA = schema.attributes('One description of the unit, in one language', {
  localId: schema.text('Identifier of the description, when its source gives one'),
  ...schema.LANGUAGE,
  name: schema.text('Title (unittitle)'),
  parallelFormsOfName: schema.texts('Titles in other languages or scripts'),
  extentAndMedium: schema.text('Extent and medium (physdesc)'),
  unitDates: schema.texts('Dates as written (unitdate)'),
  biographicalHistory: schema.text('Administrative or biographical history (bioghist)'),
  archivalHistory: schema.text('Archival history (custodhist)'),
  acquisition: schema.text('Immediate source of acquisition (acqinfo)'),
  scopeAndContent: schema.text('Scope and content (scopecontent)'),
  appraisal: schema.text('Appraisal, destruction and scheduling (appraisal)'),
  accruals: schema.text('Accruals (accruals)'),
  systemOfArrangement: schema.text('System of arrangement (arrangement)'),
  languageOfMaterials: schema.texts('Languages of the material, named in the language of the answer'),
  scriptOfMaterials: schema.texts('Scripts of the material, named in the language of the answer'),
});

/**
 * A unit of description: held by a repository, part of its parent, which a fetch includes as the
 * context a reader needs to place it; a text search scoped to it looks at its whole subtree.
 */
export const DOCUMENTARY_UNIT = portalType({
  type: 'DocumentaryUnit',
  searched: true,
  attributes: unitAttributes,
  schema: schema.attributes('A unit of description (fonds, series, file, item …)', {
    localId: schema.text('Its identifier within its parent (unitid)'),
    alternateIds: schema.texts('Other identifiers'),
    descriptions: {
      type: 'array',
      items: DESCRIPTION_SCHEMA,
      description: 'Its descriptions, in the languages of Accept-Language first',
    },
  }),
  relationships: {
    holder: {
      type: 'Repository',
      description: 'The repository holding the unit, directly or through its ancestors',
      target: (item) => item.holderId,
    },
    parent: {
      type: 'DocumentaryUnit',
      description: 'The unit it is part of; null for a top-level unit',
      target: (item) => item.stored.edges.childOf?.[0],
    },
  },
  includesRelated: true,
  textSearchesSubtree: true,
});

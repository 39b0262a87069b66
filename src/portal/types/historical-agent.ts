import { Bundle } from '../../items/bundle';
import * as schema from './attribute-schemas';
import { Localisation, descriptions, languageAttributes, text, texts } from './attribute-values';
import { portalType } from './portal-type';

/** Agent attributes and the description fields they come from (the reference's EAC mapping). */
const TEXT_FIELDS = {
  name: 'name',
  datesOfExistence: 'datesOfExistence',
  history: 'biographicalHistory',
  internalStructure: 'structure',
  generalContext: 'generalContext',
} as const;
const LIST_FIELDS = {
  otherFormsOfName: 'otherFormsOfName',
  places: 'place',
  legalStatus: 'legalStatus',
  functions: 'functions',
  mandates: 'mandates',
} as const;

/** An agent's attributes come from its one best description, as the reference writes them. */
function agentAttributes(bundle: Bundle, localisation: Localisation): Record<string, unknown> {
  const attributes: Record<string, unknown> = { localId: text(bundle.data, 'identifier') };
  const description = descriptions(bundle, 'HistoricalAgentDescription', localisation)[0];
  if (description === undefined) return attributes;
  const { data } = description;
  for (const [field, key] of Object.entries(TEXT_FIELDS)) attributes[field] = text(data, key);
  for (const [field, key] of Object.entries(LIST_FIELDS)) attributes[field] = texts(data, key);
  return { ...attributes, ...languageAttributes(data, localisation) };
}

/** A person, family or corporate body of an authority set; it links the search of what links to it. */
export const HISTORICAL_AGENT = portalType({
  type: 'HistoricalAgent',
  searched: true,
  attributes: agentAttributes,
  schema: schema.attributes('A person, family or corporate body, from its best description', {
    localId: schema.text('Its identifier within its authority set'),
    name: schema.text('Authorised form of the name'),
    otherFormsOfName: schema.texts('Other forms of the name'),
    datesOfExistence: schema.text('Dates of existence'),
    history: schema.text('History or biography'),
    places: schema.texts('Places'),
    legalStatus: schema.texts('Legal status'),
    functions: schema.texts('Functions, occupations and activities'),
    mandates: schema.texts('Mandates and sources of authority'),
    internalStructure: schema.text('Internal structures or genealogy'),
    generalContext: schema.text('General context'),
    ...schema.LANGUAGE,
  }),
  relationships: {
    set: {
      type: 'AuthoritativeSet',
      description: 'The authority set holding the agent',
      target: (item) => item.stored.edges.inAuthoritativeSet?.[0],
    },
  },
  linksRelated: true,
});

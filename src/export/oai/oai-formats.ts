import { OAI_DC_NAMESPACE, OAI_DC_SCHEMA } from '../dc/dublin-core';
import { OaiError } from './oai-errors';

/**
 * The metadata formats served, as the reference's provider serves them (`MetadataPrefix`), EAD3
 * beside EAD 2002. Every documentary unit is a record in `oai_dc`; only top-level units, each a
 * whole finding aid, are records in the EAD formats, as the reference serves them and as
 * aggregators of finding aids (the Archives Portal Europe) harvest them.
 */
export interface MetadataFormat {
  prefix: 'oai_dc' | 'ead' | 'ead3';
  schema: string;
  namespace: string;
  /** Whether only top-level units (those a repository holds) are records in it. */
  topLevelOnly: boolean;
}

export const METADATA_FORMATS: readonly MetadataFormat[] = [
  { prefix: 'oai_dc', schema: OAI_DC_SCHEMA, namespace: OAI_DC_NAMESPACE, topLevelOnly: false },
  {
    prefix: 'ead',
    schema: 'http://www.loc.gov/ead/ead.xsd',
    namespace: 'urn:isbn:1-931666-22-9',
    topLevelOnly: true,
  },
  {
    prefix: 'ead3',
    schema: 'http://www.loc.gov/ead/ead3.xsd',
    namespace: 'http://ead3.archivists.org/schema/',
    topLevelOnly: true,
  },
];

/** The format of a prefix; cannotDisseminateFormat for one not served. */
export function metadataFormat(prefix: string): MetadataFormat {
  const format = METADATA_FORMATS.find((candidate) => candidate.prefix === prefix);
  if (format === undefined) {
    throw new OaiError(
      'cannotDisseminateFormat',
      `The metadata format ${JSON.stringify(prefix)} is not served: ask for one of ${METADATA_FORMATS.map((f) => f.prefix).join(', ')}`,
    );
  }
  return format;
}

/** The formats a unit is a record in: all for a top-level unit, the others for one below it. */
export function formatsOf(topLevel: boolean): MetadataFormat[] {
  return METADATA_FORMATS.filter((format) => topLevel || !format.topLevelOnly);
}

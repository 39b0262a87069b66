import { AUTHORITATIVE_SET } from './authoritative-set';
import { COUNTRY } from './country';
import { CVOC_CONCEPT } from './cvoc-concept';
import { CVOC_VOCABULARY } from './cvoc-vocabulary';
import { DOCUMENTARY_UNIT } from './documentary-unit';
import { HISTORICAL_AGENT } from './historical-agent';
import { REPOSITORY } from './repository';

/**
 * The item types the portal API serves, one line each, in the order its documents list them;
 * every other item is invisible to it. A new type is a file of this folder and a line here.
 */
export const PORTAL_TYPE_DEFINITIONS = [
  COUNTRY,
  REPOSITORY,
  DOCUMENTARY_UNIT,
  HISTORICAL_AGENT,
  CVOC_CONCEPT,
  AUTHORITATIVE_SET,
  CVOC_VOCABULARY,
] as const;

export type { PortalTypeDefinition, PortalFacet, FacetNaming } from './portal-type';
export type { Localisation } from './attribute-values';

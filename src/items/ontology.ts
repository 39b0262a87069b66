/**
 * Property names of the graph, as the reference system's `Ontology` spells them, for the code
 * that builds or reads bundles.
 */

/** An item's local identifier; on a description, what tells its id apart from other descriptions. */
export const IDENTIFIER = 'identifier';
/** Further local identifiers of an item (a list). */
export const OTHER_IDENTIFIERS = 'otherIdentifiers';
export const NAME = 'name';
/** A description's language: an ISO 639-2/T code. */
export const LANGUAGE_CODE = 'languageCode';
/** A description's source file: for EAD, `<eadid>#<LANGUAGE CODE IN CAPITALS>`. */
export const SOURCE_FILE_ID = 'sourceFileId';
export const URI = 'uri';

// DatePeriod
export const START_DATE = 'startDate';
export const END_DATE = 'endDate';
export const DATE_PERIOD_TYPE = 'type';
export const DATE_PERIOD_PRECISION = 'precision';
export const DATE_PERIOD_DESCRIPTION = 'description';

// AccessPoint
export const ACCESS_POINT_TYPE = 'type';

// Link
export const LINK_TYPE = 'type';
export const LINK_FIELD = 'field';
export const LINK_DESCRIPTION = 'description';

// MaintenanceEvent
export const MAINTENANCE_EVENT_TYPE = 'eventType';
export const MAINTENANCE_EVENT_AGENT_TYPE = 'agentType';

/**
 * Data keys starting with this prefix are managed by the system (timestamps, caches) and, as in
 * the reference, play no part in deciding whether an item changed.
 */
export const MANAGED_PREFIX = '_';

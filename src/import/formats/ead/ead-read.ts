import { XmlMapping } from '../common/xml-mapping';
import { readXml } from '../common/xml-parser';
import { ImportSource, ReadEvent } from '../read-events';
import { DEFAULT_EAD_MAPPING } from './ead2002-mapping';
import { EadHandler, MissingUnitIdPolicy } from './ead-handler';
import { UnitImporter, UnitSettings } from './ead-unit';

/**
 * What reading an EAD document takes besides its bytes. Plain data (it crosses to a worker thread
 * by structured clone), so the mapping travels as its text and is parsed where it is used.
 */
export interface EadReadSettings {
  scope: UnitSettings['scope'];
  /** The `properties` parameter's mapping, when given; else the default EAD 2002 mapping. */
  properties?: string;
  /** Default description language, ISO 639-2/T. */
  lang: string;
  missingUnitId: MissingUnitIdPolicy;
}

/**
 * Reads one EAD document into units. The EAD reader's own work, free of Nest, so that the same
 * function runs in the import's thread or in a worker thread, with the same results.
 */
export function readEad(source: ImportSource, settings: EadReadSettings): AsyncIterable<ReadEvent> {
  const mapping = XmlMapping.fromParameter(settings.properties, DEFAULT_EAD_MAPPING);
  const importer = new UnitImporter({ tag: source.tag, scope: settings.scope });
  return readXml(
    source,
    (locator) => new EadHandler(mapping, locator, importer, settings.lang, settings.missingUnitId),
  );
}

import { FlatNodeReader, FlatNodeWriter } from '../common/flat-nodes';
import { XmlMapping } from '../common/xml-mapping';
import { readXml } from '../common/xml-parser';
import { ImportSource, ReadEvent } from '../read-events';
import { ItemPart, PartBuilder, UnbuiltItem } from '../../reading/worker-messages';
import { DEFAULT_EAD_MAPPING } from './ead2002-mapping';
import { EadHandler, EadUnit, MissingUnitIdPolicy, UnitImporter as EadUnitImporter } from './ead-handler';
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

function unitImporter(source: Pick<ImportSource, 'tag'>, settings: EadReadSettings): UnitImporter {
  return new UnitImporter({ tag: source.tag, scope: settings.scope });
}

function readUnits<T>(
  source: ImportSource,
  settings: EadReadSettings,
  importer: EadUnitImporter<T>,
  keepsSlices = false,
): AsyncIterable<T> {
  const mapping = XmlMapping.fromParameter(settings.properties, DEFAULT_EAD_MAPPING);
  const { lang, missingUnitId } = settings;
  return readXml(
    source,
    (locator) => new EadHandler(mapping, locator, importer, lang, missingUnitId, keepsSlices),
  );
}

/**
 * Reads one EAD document into units. The EAD reader's own work, free of Nest, so that the same
 * function runs in the import's thread or in a worker thread, with the same results.
 */
export function readEad(source: ImportSource, settings: EadReadSettings): AsyncIterable<ReadEvent> {
  return readUnits(source, settings, unitImporter(source, settings));
}

/** What a unit's part holds before its node: the unit's other fields. */
type UnitHead = [
  localId: EadUnit['localId'],
  id: EadUnit['id'],
  parentId: EadUnit['parentId'],
  ancestorIds: EadUnit['ancestorIds'],
  maintenanceEvents: EadUnit['maintenanceEvents'],
  line: EadUnit['line'],
  column: EadUnit['column'],
];
const HEAD_LENGTH = 7;

/**
 * Leaves the items of units with an id unbuilt, for whichever thread has the time; their parts
 * hold the unit's fields, then its node, flat.
 */
class UnbuiltUnits implements EadUnitImporter<ReadEvent | UnbuiltItem> {
  private readonly nodes = new FlatNodeWriter();

  constructor(private readonly importer: UnitImporter) {}

  unitId(localId: string, parent?: { id: string; localId: string }): string {
    return this.importer.unitId(localId, parent);
  }

  importUnit(unit: EadUnit): ReadEvent | UnbuiltItem {
    // A unit without an id is rejected, which costs nothing to build.
    if (unit.id === undefined) return this.importer.importUnit(unit);
    return { kind: 'unbuilt', build: () => this.importer.importUnit(unit), part: () => this.part(unit) };
  }

  private part(unit: EadUnit): ItemPart {
    const { localId, id, parentId, ancestorIds, maintenanceEvents, line, column } = unit;
    const head: UnitHead = [localId, id, parentId, ancestorIds, maintenanceEvents, line, column];
    return this.nodes.write(unit.node, head);
  }
}

/**
 * `readEad` for a worker thread (`readInWorker`), with `eadPartBuilder` as its part builder: the
 * same events, but items are built by whichever thread has the time.
 */
export function readEadInWorker(
  source: ImportSource,
  settings: EadReadSettings,
): AsyncIterable<ReadEvent | UnbuiltItem> {
  const importer = unitImporter(source, settings);
  // What this thread builds or sends is copied into the message: no value outlives its batch.
  return readUnits(source, settings, new UnbuiltUnits(importer), true);
}

/** Builds the items `readEadInWorker` leaves unbuilt, from their parts (a `PartBuilderFactory`). */
export function eadPartBuilder(settings: EadReadSettings, source: Omit<ImportSource, 'bytes'>): PartBuilder {
  const importer = unitImporter(source, settings);
  const nodes = new FlatNodeReader();
  return (part) => {
    const [localId, id, parentId, ancestorIds, maintenanceEvents, line, column] = part as UnitHead;
    const node = nodes.read(part, HEAD_LENGTH);
    return importer.importUnit({ node, localId, id, parentId, ancestorIds, maintenanceEvents, line, column });
  };
}

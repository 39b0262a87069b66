import { FlatNodeReader, FlatNodeWriter } from '../../reading/flat-nodes';
import { XmlMapping } from '../../parsing/xml/xml-mapping';
import { readXml } from '../../parsing/xml/xml-parser';
import { ImportEvent, ImportSource, ReadEvent, ReadLimits } from '../read-events';
import { ItemPart, PartBuilder, UnbuiltItem } from '../../reading/worker-messages';
import { DEFAULT_EAD_MAPPING } from './ead2002-mapping';
import { EadHandler, MissingUnitIdPolicy } from './ead-handler';
import { EadUnit, UnitBuilder, UnitImporter, UnitSettings } from '../../building/unit-builder';
import { unitHasher } from './unit-hash';
import { DuplicateUnitIdPolicy } from '../../building/sibling-ids';

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
  duplicateUnitId: DuplicateUnitIdPolicy;
  limits: ReadLimits;
}

function unitImporter(source: Pick<ImportSource, 'tag'>, settings: EadReadSettings): UnitBuilder {
  return new UnitBuilder({ tag: source.tag, scope: settings.scope });
}

function readUnits<T>(
  source: ImportSource,
  settings: EadReadSettings,
  importer: UnitImporter<T>,
  keepsSlices = false,
): AsyncIterable<T> {
  const mapping = XmlMapping.fromParameter(settings.properties, DEFAULT_EAD_MAPPING);
  const { lang, missingUnitId, duplicateUnitId, limits } = settings;
  return readXml(
    source,
    (locator) =>
      new EadHandler(mapping, locator, importer, lang, missingUnitId, duplicateUnitId, limits, keepsSlices),
  );
}

/**
 * The units' change hashes: of the settings that build them, not of the limits, which only refuse
 * documents, so that changing a limit leaves the stored hashes valid.
 */
function hasherFor(settings: EadReadSettings): ReturnType<typeof unitHasher> {
  const { limits: _limits, ...building } = settings;
  return unitHasher(building);
}

/** The event with its unit's change hash, when it is an item. */
function withHash(event: ReadEvent, hash: string): ReadEvent {
  if (event.kind === 'item') event.hash = hash;
  return event;
}

/** Builds each unit's item with its change hash (`unitHasher`), as the other ways of reading do. */
class HashedUnits implements UnitImporter<ReadEvent> {
  constructor(
    private readonly importer: UnitBuilder,
    private readonly hashOf: (unit: EadUnit) => string,
  ) {}

  unitId(localId: string, parent?: { id: string; localId: string }): string {
    return this.importer.unitId(localId, parent);
  }

  importUnit(unit: EadUnit): ReadEvent {
    if (unit.id === undefined) return this.importer.importUnit(unit);
    // Hashed first: building takes fields out of the unit's node.
    const hash = this.hashOf(unit);
    return withHash(this.importer.importUnit(unit), hash);
  }
}

/**
 * Reads one EAD document into units. The EAD reader's own work, free of Nest, so that the same
 * function runs in the import's thread or in a worker thread, with the same results.
 */
export function readEad(source: ImportSource, settings: EadReadSettings): AsyncIterable<ReadEvent> {
  return readUnits(source, settings, new HashedUnits(unitImporter(source, settings), hasherFor(settings)));
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
class UnbuiltUnits implements UnitImporter<ReadEvent | UnbuiltItem> {
  private readonly nodes = new FlatNodeWriter();

  constructor(private readonly units: HashedUnits) {}

  unitId(localId: string, parent?: { id: string; localId: string }): string {
    return this.units.unitId(localId, parent);
  }

  importUnit(unit: EadUnit): ReadEvent | UnbuiltItem {
    // A unit without an id is rejected, which costs nothing to build.
    if (unit.id === undefined) return this.units.importUnit(unit);
    return { kind: 'unbuilt', build: () => this.units.importUnit(unit), part: () => this.part(unit) };
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
  const units = new HashedUnits(unitImporter(source, settings), hasherFor(settings));
  // What this thread builds or sends is copied into the message: no value outlives its batch.
  return readUnits(source, settings, new UnbuiltUnits(units), true);
}

/**
 * Turns the parts `readEadInWorker` sends into deferred items, with their ids and change hashes
 * (a `PartBuilderFactory`): the import run builds only those it must write.
 */
export function eadPartBuilder(settings: EadReadSettings, source: Omit<ImportSource, 'bytes'>): PartBuilder {
  const hashOf = hasherFor(settings);
  const importer = unitImporter(source, settings);
  const nodes = new FlatNodeReader();
  return (part): ImportEvent => {
    const [localId, id, parentId, ancestorIds, maintenanceEvents, line, column] = part as UnitHead;
    // Every part is read, built or not: the node reader learns the names that later parts refer to.
    const node = nodes.read(part, HEAD_LENGTH);
    const unit: EadUnit = { node, localId, id, parentId, ancestorIds, maintenanceEvents, line, column };
    if (id === undefined) return importer.importUnit(unit);
    const hash = hashOf(unit);
    return {
      kind: 'deferred',
      tag: source.tag,
      id,
      hash,
      build: () => withHash(importer.importUnit(unit), hash),
    };
  };
}

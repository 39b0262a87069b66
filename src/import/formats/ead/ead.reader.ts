import { Injectable } from '@nestjs/common';
import { ItemType } from '../../../items/item-types';
import { XmlMapping } from '../common/xml-mapping';
import { readXml } from '../common/xml-parser';
import {
  FormatReader,
  ImportContext,
  ImportFormat,
  ImportInputError,
  ImportSource,
  ReadEvent,
} from '../format-reader';
import { DEFAULT_EAD_MAPPING } from './ead2002-mapping';
import { EadHandler, MissingUnitIdPolicy } from './ead-handler';
import { UnitImporter } from './ead-unit';

const MISSING_UNITID_PARAMETER = 'missing-unitid';
const MISSING_UNITID_POLICIES: readonly MissingUnitIdPolicy[] = ['error', 'attribute', 'position'];

/** The `missing-unitid` parameter: `error` (the reference's behaviour), `attribute` or `position`. */
function missingUnitIdPolicy(context: ImportContext): MissingUnitIdPolicy {
  const given = context.params.query[MISSING_UNITID_PARAMETER];
  if (given === undefined) return 'error';
  const policy = MISSING_UNITID_POLICIES.find((name) => name === given);
  if (policy === undefined) {
    throw new ImportInputError(
      `Parameter "${MISSING_UNITID_PARAMETER}" must be one of ${MISSING_UNITID_POLICIES.join(', ')}, got "${String(given)}"`,
    );
  }
  return policy;
}

/**
 * `POST /import/ead`: EAD finding aids into a repository (or below a unit), as the reference's
 * `EadHandler` and `EadImporter`: one documentary unit per `archdesc`, `c` and `c01`–`c12`, with
 * one description in the finding aid's language, fields mapped by `ead2002.properties` or the
 * mapping the `properties` parameter gives.
 */
@Injectable()
@ImportFormat()
export class EadReader implements FormatReader {
  readonly name = 'ead';
  /**
   * The reference's EAD handlers and importers. The variants it kept for particular institutions
   * (ICA-AtoM, USHMM, ARA) read standard EAD here.
   */
  readonly classNames = [
    'ead',
    ...[
      'EadHandler',
      'EadImporter',
      'IcaAtomEadHandler',
      'IcaAtomEadImporter',
      'UshmmHandler',
      'AraEadImporter',
    ].flatMap((name) => [name, `eu.ehri.project.importers.ead.${name}`]),
  ];
  readonly scopeTypes: readonly ItemType[] = ['Repository', 'DocumentaryUnit'];
  readonly input = 'documents';
  readonly scopeRequired = true;

  read(source: ImportSource, context: ImportContext): AsyncIterable<ReadEvent> {
    const scope = context.scope;
    if (scope === undefined) {
      throw new ImportInputError(
        'An EAD import needs a repository or a unit: give its id as the scope parameter',
      );
    }
    const mapping = XmlMapping.fromParameter(context.params.properties, DEFAULT_EAD_MAPPING);
    const policy = missingUnitIdPolicy(context);
    const settings = {
      tag: source.tag,
      scope: { id: scope.bundle.id, type: scope.bundle.type as ItemType, identifiers: scope.identifiers },
    };
    const importer = new UnitImporter(settings);
    return readXml(
      source,
      (locator) => new EadHandler(mapping, locator, importer, context.params.lang, policy),
    );
  }
}

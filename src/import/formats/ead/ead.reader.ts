import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { ItemType } from '../../../items/item-types';
import { readInWorker, readsInWorker } from '../../reading/worker-reading';
import {
  FormatDeclaration,
  FormatParameter,
  FormatReader,
  ImportContext,
  ImportEvent,
  ImportFormat,
  ImportInputError,
  ImportSource,
} from '../format-reader';
import { MissingUnitIdPolicy } from './ead-handler';
import { eadPartBuilder, EadReadSettings, readEad, readEadInWorker } from './ead-read';
import { choiceParameter } from '../format-params';
import {
  DUPLICATE_UNITID,
  DUPLICATE_UNITID_PARAMETER,
  DUPLICATE_UNITID_POLICIES,
} from '../../building/sibling-ids';

const MISSING_UNITID_POLICIES: readonly MissingUnitIdPolicy[] = ['error', 'attribute', 'position'];

/** The `missing-unitid` parameter, which the sync reads too. */
export const MISSING_UNITID_PARAMETER: FormatParameter = {
  name: 'missing-unitid',
  description:
    'a unit without unitid, or whose unitid slugifies to nothing (---): error (default), attribute (the component id) or position (among siblings)',
};

export const EAD_FORMAT: FormatDeclaration = {
  name: 'ead',
  summary: 'EAD 2002 finding aids: documentary units into a repository, or below a unit',
  input: 'documents',
  parameters: [MISSING_UNITID_PARAMETER, DUPLICATE_UNITID_PARAMETER],
};

function readSettings(context: ImportContext): EadReadSettings {
  const scope = context.scope;
  if (scope === undefined) {
    throw new ImportInputError(
      'An EAD import needs a repository or a unit: give its id as the scope parameter',
    );
  }
  return {
    scope: { id: scope.bundle.id, type: scope.bundle.type as ItemType, identifiers: scope.identifiers },
    properties: context.params.properties,
    lang: context.params.lang,
    missingUnitId: choiceParameter(
      context.params.query,
      MISSING_UNITID_PARAMETER.name,
      MISSING_UNITID_POLICIES,
    ),
    duplicateUnitId: choiceParameter(context.params.query, DUPLICATE_UNITID, DUPLICATE_UNITID_POLICIES),
    limits: context.params.limits,
  };
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
  readonly name = EAD_FORMAT.name;
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
  readonly input = EAD_FORMAT.input;
  readonly scopeRequired = true;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * Reads in a worker thread when the source is large (`IMPORT_WORKER_MIN_BYTES`) and that is on
   * (`IMPORT_READ_IN_WORKER`), else in process: the same events either way.
   */
  read(source: ImportSource, context: ImportContext): AsyncIterable<ImportEvent> {
    const settings = readSettings(context);
    const { readInWorker: workerOn, workerMinBytes } = this.config.import;
    if (!workerOn || !readsInWorker(source, workerMinBytes)) return readEad(source, settings);
    return readInWorker(
      source,
      {
        module: require.resolve('./ead-read'),
        exportName: readEadInWorker.name,
        partBuilder: eadPartBuilder.name,
        settings,
      },
      undefined,
      context.signal,
    );
  }
}

import { Injectable } from '@nestjs/common';
import { ItemType } from '../../../items/item-types';
import { XmlMapping } from '../../parsing/xml/xml-mapping';
import { readXml } from '../../parsing/xml/xml-parser';
import {
  FormatDeclaration,
  FormatReader,
  ImportContext,
  ImportFormat,
  ImportInputError,
  ImportSource,
  ReadEvent,
} from '../format-reader';
import { DEFAULT_EAG_MAPPING } from './eag-mapping';
import { EagHandler } from './eag-handler';
import { repositoryEvent } from '../../building/repository-builder';

export const EAG_FORMAT: FormatDeclaration = {
  name: 'eag',
  summary: "EAG 2012 or the reference's EAG profile: one repository per document, into a country",
  input: 'documents',
  parameters: [],
};

/**
 * `POST /import/eag`: EAG repository descriptions into a country, as the reference's `EagHandler`
 * and `EagImporter`: one repository per document, with its description and address. Reads the
 * reference's EAG profile (`eag.properties`) and EAG 2012.
 */
@Injectable()
@ImportFormat()
export class EagReader implements FormatReader {
  readonly name = EAG_FORMAT.name;
  readonly classNames = [
    'eag',
    ...['EagHandler', 'EagImporter'].flatMap((name) => [name, `eu.ehri.project.importers.eag.${name}`]),
  ];
  readonly scopeTypes: readonly ItemType[] = ['Country'];
  readonly input = EAG_FORMAT.input;
  readonly scopeRequired = true;
  /** The reference's `EagImporter` writes a re-imported repository whole, descriptions included. */
  readonly descriptionUpdate = 'replace';

  async *read(source: ImportSource, context: ImportContext): AsyncIterable<ReadEvent> {
    const scope = context.scope;
    if (scope === undefined) {
      throw new ImportInputError('An EAG import needs a country: give its id as the scope parameter');
    }
    const given = context.params.properties;
    const mapping = XmlMapping.fromParameter(given, DEFAULT_EAG_MAPPING);
    const settings = { tag: source.tag, scope: { id: scope.bundle.id, identifiers: scope.identifiers } };
    const records = readXml(
      source,
      (locator) => new EagHandler(mapping, locator, context.params.lang, given !== undefined),
    );
    for await (const record of records) yield repositoryEvent(record, settings);
  }
}

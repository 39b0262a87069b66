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
import { agentFromRecord } from './eac-agent';
import { EacHandler } from './eac-handler';
import { DEFAULT_EAC_MAPPING } from './eac-mapping';

export const EAC_FORMAT: FormatDeclaration = {
  name: 'eac',
  summary: 'EAC-CPF authority records: one historical agent per document, into an authority set',
  input: 'documents',
  parameters: [],
};

/**
 * `POST /import/eac`: EAC-CPF authority records into an `AuthoritativeSet`, as the reference's
 * `EacHandler` and `EacImporter`: one `HistoricalAgent` per document, fields mapped by
 * `eac.properties` or the mapping the `properties` parameter names.
 */
@Injectable()
@ImportFormat()
export class EacReader implements FormatReader {
  readonly name = EAC_FORMAT.name;
  readonly classNames = [
    'eac',
    'EacHandler',
    'EacImporter',
    'eu.ehri.project.importers.eac.EacHandler',
    'eu.ehri.project.importers.eac.EacImporter',
  ];
  readonly scopeTypes: readonly ItemType[] = ['AuthoritativeSet'];
  readonly input = EAC_FORMAT.input;
  readonly descriptionUpdate = 'replace';
  readonly scopeRequired = true;

  async *read(source: ImportSource, context: ImportContext): AsyncIterable<ReadEvent> {
    const scope = context.scope;
    if (scope === undefined) {
      throw new ImportInputError(
        'An EAC import needs an authoritative set: give its id as the scope parameter',
      );
    }
    const mapping = XmlMapping.fromParameter(context.params.properties, DEFAULT_EAC_MAPPING);
    const settings = { scope, defaultLang: context.params.lang, tag: source.tag };
    for await (const record of readXml(source, (locator) => new EacHandler(mapping, locator))) {
      yield agentFromRecord(record, settings);
    }
  }
}

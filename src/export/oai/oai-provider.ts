import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { GraphStore } from '../../graph/graph-store';
import { tombstoneRepository } from '../../graph/records/tombstone-repository';
import { dublinCoreSources } from '../dc/dc-sources';
import { textElement } from '../dc/xml-markup';
import { EadExporter } from '../ead/ead-exporter';
import { datestamp } from './oai-dates';
import { ANSWER_END, answerStart, errorAnswer, header, resumptionToken, setElement } from './oai-envelope';
import { OaiError } from './oai-errors';
import { formatsOf, METADATA_FORMATS, metadataFormat, MetadataFormat } from './oai-formats';
import { RecordLists, TOKEN_LIFETIME_MS } from './oai-lists';
import { OaiRequest, parseRequest } from './oai-request';
import { countrySets, repositorySets, setSpecsOf } from './oai-sets';
import { decodeToken, encodeToken } from './oai-token';

/** An answer, as pieces of text to send one after another. */
export type OaiAnswer = AsyncIterable<string> | Iterable<string>;

/**
 * The OAI-PMH 2.0 provider (docs/oai-pmh.md): answers each verb from the store, protocol errors
 * included, as the reference's `OaiPmhExporter` does. Every documentary unit is an item; deleted
 * ones come from the tombstones imports leave (`deletedRecord: persistent`).
 */
@Injectable()
export class OaiProvider {
  readonly baseUrl: string;
  private readonly lists: RecordLists;

  constructor(
    private readonly store: GraphStore,
    ead: EadExporter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.baseUrl = `${config.publicUrl}/oai`;
    this.lists = new RecordLists(store, ead, config.oai.pageSize);
  }

  /**
   * The answer to a request's arguments (query or form pairs). Protocol errors are answers too;
   * every check and the first read happen before the first piece, so that an error is never
   * found half-way through an answer.
   */
  async answer(pairs: readonly (readonly [string, string])[], now = new Date()): Promise<OaiAnswer> {
    let request: OaiRequest | undefined;
    try {
      request = parseRequest(pairs);
      const body = await this.verb(request, now);
      return (async function* (start: string) {
        yield start;
        yield* body;
        yield ANSWER_END;
      })(answerStart(now, this.baseUrl, request));
    } catch (error) {
      if (error instanceof OaiError) return [errorAnswer(now, this.baseUrl, request, error)];
      throw error;
    }
  }

  private verb(request: OaiRequest, now: Date): Promise<OaiAnswer> {
    switch (request.verb) {
      case 'Identify':
        return this.identify();
      case 'ListMetadataFormats':
        return this.listMetadataFormats(request.identifier);
      case 'ListSets':
        return this.listSets(request.resumptionToken, now);
      case 'GetRecord':
        return this.getRecord(request.identifier!, request.metadataPrefix!);
      case 'ListIdentifiers':
      case 'ListRecords':
        return this.lists.answer(request, now);
    }
  }

  private async identify(): Promise<OaiAnswer> {
    const earliest = await this.store.read(async (tx) => {
      const [first] = (
        await tx.search({
          types: ['DocumentaryUnit'],
          order: { key: 'updated', descending: false },
          offset: 0,
          limit: 1,
        })
      ).hits;
      const unit = first && (await tx.getItems([first.id])).get(first.id)?.updated;
      const removed = (await tombstoneRepository.earliest(tx))?.removed;
      const times = [unit, removed].filter((time): time is string => time !== undefined).sort();
      // With no record yet, none is older than now.
      return times[0] ?? new Date().toISOString();
    });
    const { repositoryName, adminEmail } = this.config.oai;
    return [
      '<Identify>',
      textElement('repositoryName', repositoryName),
      textElement('baseURL', this.baseUrl),
      textElement('protocolVersion', '2.0'),
      textElement('adminEmail', adminEmail),
      textElement('earliestDatestamp', datestamp(earliest)),
      textElement('deletedRecord', 'persistent'),
      textElement('granularity', 'YYYY-MM-DDThh:mm:ssZ'),
      '</Identify>',
    ];
  }

  /**
   * The formats of every item, or of one: a top-level unit's all, a unit below another's Dublin
   * Core alone; a deleted item has none left to disseminate.
   */
  private async listMetadataFormats(identifier: string | undefined): Promise<OaiAnswer> {
    let formats: readonly MetadataFormat[] = METADATA_FORMATS;
    if (identifier !== undefined) {
      const found = await this.store.read(async (tx) => {
        const stored = (await tx.getItems([identifier])).get(identifier);
        const deleted = stored ? undefined : await tombstoneRepository.get(tx, identifier);
        return { stored, deleted };
      });
      if (found.stored?.bundle.type === 'DocumentaryUnit') {
        formats = formatsOf((found.stored.edges.heldBy ?? []).length > 0);
      } else if (found.deleted) {
        throw new OaiError(
          'noMetadataFormats',
          `The item ${identifier} was deleted on ${found.deleted.removed}: it has no metadata left to disseminate`,
        );
      } else {
        throw noItem(identifier);
      }
    }
    const elements = formats.map(
      (format) =>
        `<metadataFormat>${textElement('metadataPrefix', format.prefix)}${textElement('schema', format.schema)}${textElement('metadataNamespace', format.namespace)}</metadataFormat>`,
    );
    return ['<ListMetadataFormats>', ...elements, '</ListMetadataFormats>'];
  }

  /**
   * Every country set with the first page, then repository sets a page at a time. With none at
   * all, noSetHierarchy: the schema lets no list of sets be empty.
   */
  private async listSets(token: string | undefined, now: Date): Promise<OaiAnswer> {
    const state = token === undefined ? undefined : decodeToken(token, 'ListSets', now);
    const after = state?.list.verb === 'ListSets' ? state.list.after : undefined;
    const answered = state?.answered ?? 0;
    const { countries, repositories } = await this.store.read(async (tx) => ({
      countries: state === undefined ? await countrySets(tx) : [],
      repositories: await repositorySets(tx, after, this.config.oai.pageSize),
    }));
    const sets = [...countries, ...repositories.sets];
    if (sets.length === 0) {
      if (state !== undefined) throw new OaiError('badResumptionToken', 'The sets it continued are gone');
      throw new OaiError('noSetHierarchy', 'There are no sets yet: no repository holds units');
    }
    const expires = new Date(now.getTime() + TOKEN_LIFETIME_MS);
    const next = repositories.next;
    const value =
      next === undefined
        ? undefined
        : encodeToken({ list: { verb: 'ListSets', after: next }, answered: answered + sets.length }, expires);
    const ending =
      value !== undefined
        ? resumptionToken(answered, { value, expires })
        : answered > 0
          ? resumptionToken(answered)
          : '';
    return ['<ListSets>', ...sets.map(setElement), ending, '</ListSets>'];
  }

  private async getRecord(identifier: string, prefix: string): Promise<OaiAnswer> {
    const format = metadataFormat(prefix);
    const found = await this.store.read(async (tx) => {
      const stored = (await tx.getItems([identifier])).get(identifier);
      if (stored?.bundle.type === 'DocumentaryUnit') {
        return { stored, ...(await dublinCoreSources(tx, [stored])).get(identifier)! };
      }
      return { deleted: stored ? undefined : await tombstoneRepository.get(tx, identifier) };
    });
    if ('deleted' in found) {
      const deleted = found.deleted;
      if (deleted === undefined) throw noItem(identifier);
      const sets = setSpecsOf(deleted);
      return [
        '<GetRecord><record>',
        header(identifier, deleted.removed, sets, true),
        '</record></GetRecord>',
      ];
    }
    const { stored, source, place } = found;
    if (format.topLevelOnly && (stored.edges.heldBy ?? []).length === 0) {
      throw new OaiError(
        'cannotDisseminateFormat',
        `The unit ${identifier} lies below another: only top-level units, each a whole finding aid, are records in ${prefix}`,
      );
    }
    const start = `<GetRecord><record>${header(identifier, stored.updated, setSpecsOf(place), false)}<metadata>`;
    const metadata = this.lists.metadata(format, identifier, source);
    return (async function* () {
      yield start;
      yield* metadata;
      yield '</metadata></record></GetRecord>';
    })();
  }
}

function noItem(identifier: string): OaiError {
  return new OaiError(
    'idDoesNotExist',
    `No documentary unit has the identifier ${JSON.stringify(identifier)}`,
  );
}

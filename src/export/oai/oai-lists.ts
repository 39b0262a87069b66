import { GraphStore } from '../../graph/graph-store';
import { dublinCoreSources, unitPlaces, UnitPlace } from '../dc/dc-sources';
import { dublinCore, DublinCoreSource } from '../dc/dublin-core';
import { EadExporter } from '../ead/ead-exporter';
import { updateBounds } from './oai-dates';
import { header, resumptionToken } from './oai-envelope';
import { OaiError } from './oai-errors';
import { metadataFormat, MetadataFormat } from './oai-formats';
import { entryPage, ListEntry } from './oai-records';
import { OaiRequest } from './oai-request';
import { resolveSet, setSpecsOf } from './oai-sets';
import { decodeToken, encodeToken, RecordListState, TokenState } from './oai-token';

/** How long a resumption token is accepted: long enough for a slow harvest to go on the next day. */
export const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** The language of the descriptions records are written in where units have several, as the reference's. */
const RECORD_LANGUAGE = 'eng';
/**
 * An EAD record is a whole finding aid, any number of units: a page of them holds this share of a
 * page of Dublin Core records.
 */
const EAD_PAGE_SHARE = 20;
/** Text gathered before it is handed on, so that a page is not sent a header at a time. */
const CHUNK_CHARACTERS = 64 * 1024;

/** A page read: its entries with what their headers and records need. */
interface ReadPage {
  entries: ListEntry[];
  next?: RecordListState['cursor'];
  places: Map<string, UnitPlace>;
  sources: Map<string, DublinCoreSource>;
}

/**
 * ListIdentifiers and ListRecords: a page of units in id order (only top-level ones in the EAD
 * formats), then the deletions, each page read in one read transaction before its answer starts,
 * the next one's place in a resumption token (`oai-token.ts`).
 */
export class RecordLists {
  constructor(
    private readonly store: GraphStore,
    private readonly ead: EadExporter,
    private readonly pageSize: number,
  ) {}

  async answer(request: OaiRequest, now: Date): Promise<AsyncIterable<string>> {
    const verb = request.verb as RecordListState['verb'];
    const state: TokenState =
      request.resumptionToken !== undefined
        ? decodeToken(request.resumptionToken, verb, now)
        : {
            list: {
              verb,
              metadataPrefix: request.metadataPrefix!,
              ...(request.set === undefined ? {} : { set: request.set }),
              ...(request.from === undefined ? {} : { from: request.from }),
              ...(request.until === undefined ? {} : { until: request.until }),
              cursor: { phase: 'live' },
            },
            answered: 0,
          };
    const list = state.list as RecordListState;
    const format = metadataFormat(list.metadataPrefix);
    const updated = updateBounds(list.from, list.until);
    const records = verb === 'ListRecords';
    const need = records && format.topLevelOnly ? Math.ceil(this.pageSize / EAD_PAGE_SHARE) : this.pageSize;
    const page = await this.store.read(async (tx): Promise<ReadPage> => {
      const scope = list.set === undefined ? undefined : await resolveSet(tx, list.set);
      const filter = { ...(scope ? { scope } : {}), updated, topLevelOnly: format.topLevelOnly };
      const { entries, next } = await entryPage(tx, filter, list.cursor, need);
      const liveIds = entries.flatMap((entry) => (entry.status === 'live' ? [entry.id] : []));
      if (!records || format.topLevelOnly) {
        return { entries, next, places: await unitPlaces(tx, liveIds), sources: new Map() };
      }
      const read = await dublinCoreSources(tx, [...(await tx.getItems(liveIds)).values()]);
      const places = new Map([...read].map(([id, { place }]) => [id, place]));
      return { entries, next, places, sources: new Map([...read].map(([id, { source }]) => [id, source])) };
    });
    if (page.entries.length === 0) {
      throw new OaiError(
        'noRecordsMatch',
        state.answered === 0
          ? 'No record matches the metadata format, set and dates asked for'
          : 'The records this list went on with are gone: they were removed since',
      );
    }
    const expires = new Date(now.getTime() + TOKEN_LIFETIME_MS);
    const token =
      page.next === undefined
        ? undefined
        : {
            value: encodeToken(
              { list: { ...list, cursor: page.next }, answered: state.answered + page.entries.length },
              expires,
            ),
            expires,
          };
    return this.pieces(verb, format, page, state.answered, token);
  }

  /** The record's metadata in `format`: Dublin Core from what was read, EAD from the exporter. */
  metadata(
    format: MetadataFormat,
    unitId: string,
    source: DublinCoreSource | undefined,
  ): Iterable<string> | AsyncIterable<string> {
    if (format.prefix === 'oai_dc') return [dublinCore(source!, RECORD_LANGUAGE)];
    return this.ead.chunks(unitId, format.prefix, RECORD_LANGUAGE, { declaration: false });
  }

  private async *pieces(
    verb: RecordListState['verb'],
    format: MetadataFormat,
    page: ReadPage,
    answered: number,
    token: { value: string; expires: Date } | undefined,
  ): AsyncGenerator<string> {
    let text = `<${verb}>`;
    for (const entry of page.entries) {
      const deleted = entry.status === 'deleted';
      const time = deleted ? entry.removed : entry.updated;
      const place = deleted ? entry : (page.places.get(entry.id) ?? {});
      const head = header(entry.id, time, setSpecsOf(place), deleted);
      if (verb === 'ListIdentifiers') text += head;
      else if (deleted) text += `<record>${head}</record>`;
      else {
        text += `<record>${head}<metadata>`;
        for await (const piece of this.metadata(format, entry.id, page.sources.get(entry.id))) {
          text += piece;
          if (text.length >= CHUNK_CHARACTERS) {
            yield text;
            text = '';
          }
        }
        text += '</metadata></record>';
      }
      if (text.length >= CHUNK_CHARACTERS) {
        yield text;
        text = '';
      }
    }
    if (token !== undefined) text += resumptionToken(answered, token);
    else if (answered > 0) text += resumptionToken(answered);
    yield `${text}</${verb}>`;
  }
}

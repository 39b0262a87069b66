import { GraphReader, RecordNode } from '../graph/graph-store';
import { idLists, IMPORT_LOG_PART_RECORD_TYPE, PART_IDS, PartedList } from './import-log-parts';
import {
  ErrorBody,
  ImportLogItem,
  ImportLogListItem,
  ImportLogRecord,
  ItemChange,
  ITEM_CHANGES,
} from './import-log.types';

/** What a list keeps of a log's message and tags, and of an error's details. */
export const LISTED_MESSAGE_CHARS = 500;
export const LISTED_TAGS = 10;
const LISTED_DETAILS_CHARS = 1000;

function cut(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)}…`;
}

/** An error body whose details are small enough to list; its message alone otherwise. */
function listedError(error: ErrorBody): ErrorBody {
  if (JSON.stringify(error.details).length <= LISTED_DETAILS_CHARS) return error;
  const message = typeof error.details === 'string' ? error.details : error.details.message;
  return { ...error, details: cut(message, LISTED_DETAILS_CHARS) };
}

/** The id lists of a stored log in the order its parts hold them, with their lengths. */
function listsOf(node: RecordNode, record: ImportLogRecord): PartedList[] {
  if (typeof node.props.parts === 'string') return JSON.parse(node.props.parts) as PartedList[];
  return idLists({ touched: record.touched, log: record.log, result: record.result }).map(
    ({ path, ids }) => ({ path, count: ids.length }),
  );
}

/**
 * `record` (read without its parts: `node` says how many ids they hold) as a list shows it.
 */
export function listItemOf(node: RecordNode, record: ImportLogRecord): ImportLogListItem {
  const { log, result: _result, touched, tags, error, ...rest } = record;
  const touchedList = listsOf(node, record).find(({ path }) => path.length === 1 && path[0] === 'touched');
  const item: ImportLogListItem = {
    ...rest,
    tags: tags.slice(0, LISTED_TAGS),
    tagCount: tags.length,
    touchedCount: touchedList?.count ?? touched.length,
  };
  if (error !== undefined) item.error = listedError(error);
  if (log !== undefined) {
    item.log = {
      created: log.created,
      updated: log.updated,
      unchanged: log.unchanged,
      errors: Object.keys(log.errors).length,
      message: log.message === null ? null : cut(log.message, LISTED_MESSAGE_CHARS),
      event: log.event,
    };
  }
  return item;
}

/** Where one source's ids of one change lie: in the record's list, or from `start` in the parts. */
interface ItemList {
  change: ItemChange;
  tag: string;
  count: number;
  /** The position of its first id among all the parts' ids; undefined when not in parts. */
  start?: number;
  ids?: string[];
}

function itemListsOf(node: RecordNode, record: ImportLogRecord, changes: readonly ItemChange[]): ItemList[] {
  const parted = typeof node.props.parts === 'string';
  const lists: ItemList[] = [];
  let start = 0;
  const all = parted
    ? listsOf(node, record).map((list) => ({ ...list, ids: undefined }))
    : idLists({ touched: record.touched, log: record.log, result: record.result }).map(({ path, ids }) => ({
        path,
        count: ids.length,
        ids: [...ids],
      }));
  for (const { path, count, ids } of all) {
    const change = path[1]?.replace(/_keys$/, '') as ItemChange;
    if (path.length === 3 && path[0] === 'log' && changes.includes(change) && path[1].endsWith('_keys')) {
      lists.push({ change, tag: path[2], count, ...(parted ? { start } : { ids }) });
    }
    start += count;
  }
  // Created, then updated, then unchanged; each by source, in the order the import read them.
  return ITEM_CHANGES.flatMap((change) => lists.filter((list) => list.change === change));
}

/** Ids `from` (inclusive) to `to` (exclusive) among all of a log's part records. */
async function partIds(tx: GraphReader, logId: string, from: number, to: number): Promise<string[]> {
  const ids: string[] = [];
  for (let part = Math.floor(from / PART_IDS); part * PART_IDS < to; part++) {
    const node = await tx.getRecord(`${logId}/${part}`);
    const stored = node?.type === IMPORT_LOG_PART_RECORD_TYPE ? node.props.ids : undefined;
    if (!Array.isArray(stored)) throw new Error(`Import log part ${logId}/${part} is missing`);
    const offset = part * PART_IDS;
    ids.push(...stored.slice(Math.max(0, from - offset), to - offset).map(String));
  }
  return ids;
}

/**
 * A page of the items a stored log lists, created ones first, then updated, then unchanged (or
 * those of `changes` only), each by source; only the part records the page needs are read.
 */
export async function pageOfItems(
  tx: GraphReader,
  node: RecordNode,
  record: ImportLogRecord,
  page: { changes: readonly ItemChange[]; offset: number; limit: number },
): Promise<{ total: number; items: ImportLogItem[] }> {
  const lists = itemListsOf(node, record, page.changes);
  const total = lists.reduce((sum, list) => sum + list.count, 0);
  const items: ImportLogItem[] = [];
  let skip = page.offset;
  for (const list of lists) {
    if (items.length === page.limit) break;
    if (skip >= list.count) {
      skip -= list.count;
      continue;
    }
    const to = Math.min(list.count, skip + page.limit - items.length);
    const ids =
      list.ids !== undefined
        ? list.ids.slice(skip, to)
        : await partIds(tx, node.id, list.start! + skip, list.start! + to);
    for (const id of ids) items.push({ id, change: list.change, tag: list.tag });
    skip = 0;
  }
  return { total, items };
}

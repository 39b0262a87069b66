import { RecordReader } from '../graph/records';
import { idLists, PartedList } from './import-log-parts';
import { StoredLog } from './import-log-record';
import { importLogRepository } from './import-log-repository';
import { ErrorBody, ImportLogItem, ImportLogListItem, ItemChange, ITEM_CHANGES } from './import-log.types';

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
function listsOf({ record, parts }: StoredLog): PartedList[] {
  if (parts !== undefined) return parts;
  return idLists({ touched: record.touched, log: record.log, result: record.result }).map(
    ({ path, ids }) => ({ path, count: ids.length }),
  );
}

/**
 * A log (read without its parts: `stored.parts` says how many ids they hold) as a list shows it.
 */
export function listItemOf(stored: StoredLog): ImportLogListItem {
  const { log, result: _result, touched, tags, error, ...rest } = stored.record;
  const touchedList = listsOf(stored).find(({ path }) => path.length === 1 && path[0] === 'touched');
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

function itemListsOf(stored: StoredLog, changes: readonly ItemChange[]): ItemList[] {
  const { record } = stored;
  const parted = stored.parts !== undefined;
  const lists: ItemList[] = [];
  let start = 0;
  const all = parted
    ? listsOf(stored).map((list) => ({ ...list, ids: undefined }))
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

/**
 * A page of the items a stored log lists, created ones first, then updated, then unchanged (or
 * those of `changes` only), each by source; only the part records the page needs are read.
 */
export async function pageOfItems(
  tx: RecordReader,
  stored: StoredLog,
  page: { changes: readonly ItemChange[]; offset: number; limit: number },
): Promise<{ total: number; items: ImportLogItem[] }> {
  const lists = itemListsOf(stored, page.changes);
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
        : await importLogRepository.partIds(tx, stored.record.id, list.start! + skip, list.start! + to);
    for (const id of ids) items.push({ id, change: list.change, tag: list.tag });
    skip = 0;
  }
  return { total, items };
}

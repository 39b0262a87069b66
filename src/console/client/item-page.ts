import { getJson } from './api.js';
import { changesTable } from './changes-view.js';
import { el, show, time } from './dom.js';
import { importsUnits, unitExports } from './export-links.js';
import { facts } from './log-page.js';
import { ImportLogRecord, ItemChanges, Page } from './types.js';
import { fieldWords } from './words.js';

/** What an import did to the item, and from which source, as its log lists it. */
function doneTo(record: ImportLogRecord, item: string): string {
  const log = record.log;
  if (!log) return 'Not listed: the import failed before it stored anything.';
  const lists = [
    ['created', log.created_keys],
    ['updated', log.updated_keys],
    ['left unchanged', log.unchanged_keys],
  ] as const;
  for (const [done, keys] of lists) {
    for (const [tag, ids] of Object.entries(keys)) if (ids.includes(item)) return `${done}, from ${tag}`;
  }
  return 'Not among the items this import lists.';
}

/**
 * The console's own view of one item in one import: what the import did to it and what it changed,
 * both from the import log, which an ops token reads. The item's current data is the portal's,
 * read with a portal token; the console does not borrow one, so each role keeps to its own API.
 */
export async function showItem(main: HTMLElement, logId: string, item: string): Promise<void> {
  const log = encodeURIComponent(logId);
  const [record, found] = await Promise.all([
    getJson<ImportLogRecord>(`/import/logs/${log}`),
    getJson<Page<ItemChanges>>(`/import/logs/${log}/changes?item=${encodeURIComponent(item)}&limit=100`),
  ]);
  show(
    main,
    el('p', {}, el('a', { href: `/console/logs/${log}` }, '← Its import log')),
    el('h1', {}, 'Item ', el('code', {}, item)),
    facts([
      ['Import', `POST /import/${record.endpoint} by ${record.user}`],
      ['Started', time(record.started)],
      ['This import', doneTo(record, item)],
      ['Type', found.items[0] ? fieldWords(found.items[0].type) : '—'],
      [
        'Current data',
        el('span', {}, 'the portal API, with a portal token: ', el('code', {}, `GET /api/v1/${item}`)),
      ],
      ...(importsUnits(record.endpoint) ? [['Export', unitExports(item)] as [string, Node]] : []),
    ]),
    el('h2', {}, 'What this import changed'),
    found.items.length === 0
      ? el(
          'p',
          {},
          'Nothing recorded: the import created it, left it as it was, or changed it past the size cap.',
        )
      : null,
    ...found.items.map((changes) => changesTable(changes)),
  );
  document.title = `Item ${item} · Import console`;
}

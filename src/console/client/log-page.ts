import { getJson } from './api.js';
import { changesTable, itemLink } from './changes-view.js';
import { el, messageBox, show, table, time } from './dom.js';
import { importsUnits, repositoryExports } from './export-links.js';
import { sourcesText } from './logs-page.js';
import { errorWords, IdsByTag, ImportLogRecord, ItemChanges, OUTCOME_WORDS, Page } from './types.js';
import { fieldWords } from './words.js';

const CHANGES_PAGE = 20;
/** Ids shown at once: a log of tens of thousands of items is read a page at a time. */
export const IDS_PAGE = 50;

export function facts(pairs: [string, Node | string][]): HTMLElement {
  return el(
    'dl',
    { class: 'facts' },
    ...pairs.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]),
  );
}

function pager(label: string, page: number, pages: number, turn: (to: number) => void): HTMLElement {
  const button = (to: number, text: string) => {
    const element = el('button', { type: 'button', class: 'secondary' }, text);
    element.addEventListener('click', () => turn(to));
    return element;
  };
  return el(
    'nav',
    { class: 'pager', 'aria-label': label },
    page > 1 ? button(page - 1, 'Previous') : null,
    el('span', {}, `Page ${page} of ${pages}`),
    page < pages ? button(page + 1, 'Next') : null,
  );
}

/** One status's ids (created, updated or unchanged), a page at a time, each under its source. */
function idsByTag(logId: string, title: string, ids: IdsByTag): HTMLElement | null {
  const all = Object.entries(ids).flatMap(([tag, list]) => list.map((id) => [tag, id] as const));
  if (all.length === 0) return null;
  const target = el('div', { 'aria-live': 'polite' });
  const pages = Math.ceil(all.length / IDS_PAGE);
  const showPage = (page: number) => {
    const slice = all.slice((page - 1) * IDS_PAGE, page * IDS_PAGE);
    const groups: { tag: string; ids: string[] }[] = [];
    for (const [tag, id] of slice) {
      const last = groups.at(-1);
      if (last?.tag === tag) last.ids.push(id);
      else groups.push({ tag, ids: [id] });
    }
    show(
      target,
      ...groups.flatMap((group) => [
        el('p', {}, 'From ', el('code', {}, group.tag), ` (${ids[group.tag].length} in all)`),
        el('ul', { class: 'ids' }, ...group.ids.map((id) => el('li', {}, itemLink(logId, id)))),
      ]),
      pages > 1 ? pager(`Pages of ${title.toLowerCase()} items`, page, pages, showPage) : null,
    );
  };
  showPage(1);
  return el('div', {}, el('h3', {}, `${title} (${all.length})`), target);
}

function errorsSection(record: ImportLogRecord): HTMLElement | null {
  const rows: Node[][] = [];
  const details = record.error?.details;
  if (record.error) {
    const where = typeof details === 'object' ? details : undefined;
    rows.push([
      document.createTextNode(where?.key ?? '—'),
      document.createTextNode(where?.tag ?? '—'),
      document.createTextNode(where?.line === undefined ? '—' : String(where.line)),
      document.createTextNode(where?.column === undefined ? '—' : String(where.column)),
      document.createTextNode(
        typeof details === 'string' ? details : (details?.message ?? record.error.error),
      ),
    ]);
  }
  for (const [key, message] of Object.entries(record.log?.errors ?? {})) {
    const where = /line (\d+)(?:, column (\d+))?/i.exec(message);
    rows.push([
      document.createTextNode(key),
      document.createTextNode('—'),
      document.createTextNode(where?.[1] ?? '—'),
      document.createTextNode(where?.[2] ?? '—'),
      document.createTextNode(message),
    ]);
  }
  if (rows.length === 0) return null;
  return el(
    'section',
    {},
    el('h2', {}, 'Errors'),
    table(['Item or key', 'Tag', 'Line', 'Column', 'Message'], rows),
  );
}

/** One import log: what it was asked, what it did, its errors, and what each update changed. */
export async function showLog(main: HTMLElement, id: string): Promise<void> {
  const record = await getJson<ImportLogRecord>(`/import/logs/${encodeURIComponent(id)}`);
  const log = record.log;
  const parameters = Object.entries(record.parameters).map(([name, value]): [string, string] => [
    name,
    Array.isArray(value) ? value.join(', ') : value,
  ]);
  const changes = el('div', { 'aria-live': 'polite' });
  show(
    main,
    el('p', {}, el('a', { href: '/console' }, '← All import logs')),
    el('h1', {}, 'Import log ', el('code', {}, record.id)),
    facts([
      ['Outcome', el('span', { class: `outcome-${record.outcome}` }, OUTCOME_WORDS[record.outcome])],
      ['Endpoint', `POST /import/${record.endpoint}`],
      ['User', record.user],
      ['Scope', record.scope ?? '—'],
      ...(record.scope && importsUnits(record.endpoint)
        ? [['Export the scope', repositoryExports(record.scope)] as [string, Node]]
        : []),
      ['Started', time(record.started)],
      ['Finished', time(record.finished)],
      ['Sources', record.tags.length > 20 ? sourcesText(record) : record.tags.join(', ') || '—'],
      ['Message', log?.message ?? '—'],
      ['Counts', log ? `${log.created} created, ${log.updated} updated, ${log.unchanged} unchanged` : '—'],
      ...(record.error ? [['Error', errorWords(record.error)] as [string, string]] : []),
    ]),
    el('h2', {}, 'Parameters'),
    parameters.length > 0 ? facts(parameters) : el('p', {}, 'None.'),
    errorsSection(record),
    log
      ? el(
          'section',
          {},
          el('h2', {}, 'Items'),
          idsByTag(record.id, 'Created', log.created_keys),
          idsByTag(record.id, 'Updated', log.updated_keys),
          idsByTag(record.id, 'Unchanged', log.unchanged_keys),
        )
      : null,
    el(
      'section',
      { 'aria-labelledby': 'changes-title' },
      el('h2', { id: 'changes-title' }, 'What the updates changed'),
      changes,
    ),
  );
  document.title = `Import log ${record.id} · Import console`;
  await showChanges(changes, record, 1);
}

async function showChanges(target: HTMLElement, record: ImportLogRecord, page: number): Promise<void> {
  const found = await getJson<Page<ItemChanges> & { truncated: boolean }>(
    `/import/logs/${encodeURIComponent(record.id)}/changes?page=${page}&limit=${CHANGES_PAGE}`,
  );
  const pages = Math.max(1, Math.ceil(found.total / found.limit));
  show(
    target,
    found.total === 0 ? el('p', {}, 'This import changed no existing item.') : null,
    found.truncated
      ? messageBox('The changes were cut at the size cap: later updated items are listed above by id only.')
      : null,
    ...found.items.flatMap((item) => [
      el('h3', {}, fieldWords(item.type), ' ', itemLink(record.id, item.item)),
      changesTable(item),
    ]),
    found.total > found.limit
      ? pager('Pages of changes', page, pages, (to) => void showChanges(target, record, to))
      : null,
  );
}

import { getJson } from './api.js';
import { el, messageBox, show, table, time } from './dom.js';
import { FieldChange, IdsByTag, ImportLogRecord, ItemChanges, Page } from './types.js';

const CHANGES_PAGE = 20;

function facts(pairs: [string, Node | string][]): HTMLElement {
  return el(
    'dl',
    { class: 'facts' },
    ...pairs.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]),
  );
}

function itemLink(id: string): HTMLElement {
  return el('a', { href: `/api/v1/${encodeURIComponent(id)}`, class: 'id' }, id);
}

function idsByTag(title: string, ids: IdsByTag): HTMLElement | null {
  const tags = Object.entries(ids).filter(([, list]) => list.length > 0);
  if (tags.length === 0) return null;
  return el(
    'div',
    {},
    el('h3', {}, title),
    ...tags.flatMap(([tag, list]) => [
      el('p', {}, 'From ', el('code', {}, tag), ` (${list.length})`),
      el('ul', { class: 'ids' }, ...list.map((id) => el('li', {}, itemLink(id)))),
    ]),
  );
}

function valueText(value: unknown): HTMLElement {
  if (value === undefined) return el('span', { class: 'visually-hidden' }, 'none');
  return el('pre', { class: 'value' }, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

function changeRow(change: FieldChange): Node[] {
  return [
    el('code', {}, change.path),
    document.createTextNode(change.change),
    el('div', { class: change.before === undefined ? '' : 'change-before' }, valueText(change.before)),
    el('div', { class: change.after === undefined ? '' : 'change-after' }, valueText(change.after)),
  ];
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
  const parameters = Object.entries(record.parameters).map(([name, value]) => [
    document.createTextNode(name),
    document.createTextNode(Array.isArray(value) ? value.join(', ') : value),
  ]);
  const changes = el('div', { 'aria-live': 'polite' });
  show(
    main,
    el('p', {}, el('a', { href: '/console' }, '← All import logs')),
    el('h1', {}, 'Import log ', el('code', {}, record.id)),
    facts([
      ['Outcome', el('span', { class: `outcome-${record.outcome}` }, record.outcome)],
      ['Endpoint', `POST /import/${record.endpoint}`],
      ['User', record.user],
      ['Scope', record.scope ?? '—'],
      ['Started', time(record.started)],
      ['Finished', time(record.finished)],
      ['Sources', record.tags.join(', ') || '—'],
      ['Message', log?.message ?? '—'],
      ['Counts', log ? `${log.created} created, ${log.updated} updated, ${log.unchanged} unchanged` : '—'],
    ]),
    el('h2', {}, 'Parameters'),
    parameters.length > 0 ? table(['Name', 'Value'], parameters) : el('p', {}, 'None.'),
    errorsSection(record),
    log
      ? el(
          'section',
          {},
          el('h2', {}, 'Items'),
          idsByTag('Created', log.created_keys),
          idsByTag('Updated', log.updated_keys),
          idsByTag('Unchanged', log.unchanged_keys),
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
  const turn = (to: number, text: string) => {
    const button = el('button', { type: 'button', class: 'secondary' }, text);
    button.addEventListener('click', () => void showChanges(target, record, to));
    return button;
  };
  show(
    target,
    found.total === 0 ? el('p', {}, 'This import changed no existing item.') : null,
    found.truncated
      ? messageBox('The changes were cut at the size cap: later updated items are listed above by id only.')
      : null,
    ...found.items.flatMap((item) => [
      el('h3', {}, item.type, ' ', itemLink(item.item)),
      table(['Where', 'Change', 'Before', 'After'], item.changes.map(changeRow), `Changes to ${item.item}`),
    ]),
    found.total > found.limit
      ? el(
          'nav',
          { class: 'pager', 'aria-label': 'Pages of changes' },
          page > 1 ? turn(page - 1, 'Previous') : null,
          el('span', {}, `Page ${page} of ${pages}`),
          page < pages ? turn(page + 1, 'Next') : null,
        )
      : null,
  );
}

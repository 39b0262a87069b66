import { getJson, Unauthorised } from './api.js';
import { el, messageBox, show, table, time } from './dom.js';
import { JobsPanel } from './jobs-panel.js';
import { ImportLogListItem, Page } from './types.js';

const PAGE_SIZE = 20;
const FILTERS = ['user', 'scope', 'endpoint', 'outcome', 'from', 'to'] as const;

function counts(record: ImportLogListItem): string {
  const log = record.log;
  if (!log) return '—';
  const errors = log.errors;
  return `${log.created} created, ${log.updated} updated, ${log.unchanged} unchanged${errors ? `, ${errors} errors` : ''}`;
}

function row(record: ImportLogListItem): Node[] {
  return [
    el('a', { href: `/console/logs/${encodeURIComponent(record.id)}`, class: 'id' }, record.id),
    time(record.started),
    document.createTextNode(record.user),
    document.createTextNode(record.endpoint),
    document.createTextNode(record.scope ?? '—'),
    document.createTextNode(record.log?.message ?? record.error?.error ?? '—'),
    document.createTextNode(counts(record)),
    el('span', { class: `outcome-${record.outcome}` }, record.outcome),
  ];
}

function filterField(name: (typeof FILTERS)[number], value: string): HTMLElement {
  const id = `filter-${name}`;
  const labels: Record<(typeof FILTERS)[number], string> = {
    user: 'User',
    scope: 'Scope',
    endpoint: 'Endpoint',
    outcome: 'Outcome',
    from: 'From (date)',
    to: 'To (date)',
  };
  let control: HTMLInputElement | HTMLSelectElement;
  if (name === 'outcome') {
    control = el(
      'select',
      { id, name },
      ...['', 'succeeded', 'failed'].map((option) =>
        el('option', { value: option, selected: option === value }, option === '' ? 'any' : option),
      ),
    );
  } else {
    control = el('input', { id, name, type: name === 'from' || name === 'to' ? 'date' : 'text', value });
  }
  return el('div', { class: 'field' }, el('label', { for: id }, labels[name]), control);
}

/**
 * The import logs, newest first, with filters and paging kept in the page's query (so a filtered
 * list can be linked to), and the running and recent jobs above them.
 */
export async function showLogs(main: HTMLElement, signal: AbortSignal): Promise<void> {
  const query = new URLSearchParams(location.search);
  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
  const results = el('div', { 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Filter import logs' },
    ...FILTERS.map((name) => filterField(name, query.get(name) ?? '')),
    el('button', { type: 'submit' }, 'Filter'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (String(value) !== '') next.set(name, String(value));
    history.pushState(null, '', `/console${next.size > 0 ? `?${next}` : ''}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  });

  const load = async () => {
    const request = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
    for (const name of FILTERS) {
      const value = query.get(name);
      if (value) request.set(name, value);
    }
    try {
      const logs = await getJson<Page<ImportLogListItem>>(`/import/logs?${request}`);
      showResults(results, logs, query);
    } catch (error) {
      if (error instanceof Unauthorised) throw error;
      show(results, messageBox(String(error), 'error'));
    }
  };

  const jobs = new JobsPanel(signal, () => void load());
  show(
    main,
    el('h1', {}, 'Import console'),
    jobs.element,
    el(
      'section',
      { 'aria-labelledby': 'logs-title' },
      el('h2', { id: 'logs-title' }, 'Import logs'),
      form,
      results,
    ),
  );
  document.title = 'Import logs · Import console';
  await Promise.all([load(), jobs.start()]);
}

function showResults(results: HTMLElement, logs: Page<ImportLogListItem>, query: URLSearchParams): void {
  const pages = Math.max(1, Math.ceil(logs.total / logs.limit));
  const pageLink = (target: number, text: string) => {
    const next = new URLSearchParams(query);
    next.set('page', String(target));
    return el('a', { href: `/console?${next}` }, text);
  };
  show(
    results,
    logs.items.length === 0
      ? messageBox('No import log matches.')
      : table(
          ['Log', 'When', 'Who', 'Endpoint', 'Scope', 'Message', 'Counts', 'Outcome'],
          logs.items.map(row),
          'Import logs, newest first',
        ),
    el(
      'nav',
      { class: 'pager', 'aria-label': 'Pages of import logs' },
      logs.page > 1 ? pageLink(logs.page - 1, 'Newer') : null,
      el('span', {}, `Page ${logs.page} of ${pages} (${logs.total} logs)`),
      logs.page < pages ? pageLink(logs.page + 1, 'Older') : null,
    ),
  );
}

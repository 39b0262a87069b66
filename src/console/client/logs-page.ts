import { getJson, Unauthorised } from './api.js';
import { el, messageBox, show, table, time } from './dom.js';
import { JobsPanel } from './jobs-panel.js';
import { errorWords, ImportLogListItem, OUTCOME_WORDS, Page } from './types.js';

const PAGE_SIZE = 20;
const FILTERS = ['user', 'scope', 'endpoint', 'outcome', 'from', 'to'] as const;
/** Source names shown in a row; the log's own page has them all. */
const SOURCES_SHOWN = 3;

/** The counts of a listed log: the list carries counts, never reads its id lists. */
function counts(record: ImportLogListItem): string {
  const log = record.log;
  if (!log) return '';
  const errors = log.errors;
  return `${log.created} created, ${log.updated} updated, ${log.unchanged} unchanged${errors ? `, ${errors} errors` : ''}`;
}

/** The files or tags an import read, or what it was given when it failed before reading any. */
export function sourcesText(
  record: Pick<ImportLogListItem, 'tags' | 'parameters'> & { tagCount?: number },
): string {
  const given = record.parameters.tag;
  const names = record.tags.length > 0 ? record.tags : Array.isArray(given) ? given : given ? [given] : [];
  if (names.length === 0) return 'request body';
  // `-` is the tag of a body sent as one file without a name.
  const shown = names
    .slice(0, SOURCES_SHOWN)
    .map((name) => (name === '-' ? 'request body' : name))
    .join(', ');
  // A listed log carries only its first tags, and how many there are.
  const total = Math.max(record.tagCount ?? 0, names.length);
  return total > SOURCES_SHOWN ? `${shown} and ${total - SOURCES_SHOWN} more` : shown;
}

function result(record: ImportLogListItem): Node {
  const message = record.log?.message;
  return el(
    'span',
    {},
    record.error ? el('span', { class: 'tone-bad' }, errorWords(record.error)) : counts(record),
    message ? el('span', { class: 'note' }, `“${message}”`) : null,
  );
}

function row(record: ImportLogListItem): Node[] {
  return [
    el('span', { class: `outcome-${record.outcome}` }, OUTCOME_WORDS[record.outcome]),
    el(
      'a',
      { href: `/console/logs/${encodeURIComponent(record.id)}` },
      sourcesText(record),
      el('span', { class: 'visually-hidden' }, ` (log ${record.id})`),
    ),
    time(record.started),
    el('span', {}, `${record.endpoint} by ${record.user}`, record.scope ? ` into ${record.scope}` : ''),
    result(record),
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
      el('option', { value: '', selected: value === '' }, 'any'),
      ...Object.entries(OUTCOME_WORDS).map(([option, words]) =>
        el('option', { value: option, selected: option === value }, words),
      ),
    );
  } else {
    control = el('input', { id, name, type: name === 'from' || name === 'to' ? 'date' : 'text', value });
  }
  return el('div', { class: 'field' }, el('label', { for: id }, labels[name]), control);
}

/**
 * The running and queued jobs on top, then the import logs (the history), newest first, with
 * filters and paging kept in the page's query (so a filtered list can be linked to).
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
          ['Outcome', 'Sources', 'Started', 'Import', 'Result'],
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

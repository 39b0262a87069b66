import { deleteJson, followEvents, getJson, Unauthorised } from './api.js';
import { duration, el, messageBox, show, time } from './dom.js';
import { TimeLeft } from './estimate.js';
import { FINISHED_STATES, ImportJobDocument } from './types.js';

/** How often the list of jobs is asked for again, to find jobs started since. */
const POLL_MS = 2000;
/** Finished jobs listed under "Finished lately"; older ones are history in the logs table. */
const RECENT = 10;

function isFinished(job: ImportJobDocument): boolean {
  return FINISHED_STATES.includes(job.state);
}

/** The bytes read of the body in percent: where it stopped for a failed or cancelled job, not full. */
function percent(job: ImportJobDocument): number | undefined {
  const { read, total } = job.progress.bytes;
  if (job.state === 'committed' || job.state === 'rolled-back') return 100;
  return total ? Math.min(100, Math.floor((read / total) * 100)) : undefined;
}

/** The state as an operator reads it: a dry run is neither a success nor a rollback of one. */
export function stateWords(job: ImportJobDocument): { text: string; tone: 'good' | 'bad' | 'neutral' } {
  const dry = !job.commit;
  switch (job.state) {
    case 'queued':
      return { text: dry ? 'dry run, queued' : 'queued', tone: 'neutral' };
    case 'running':
      return { text: dry ? 'dry run, running' : 'running', tone: 'neutral' };
    case 'committed':
      return { text: 'committed', tone: 'good' };
    case 'rolled-back':
      return { text: dry ? 'dry run' : 'rolled back', tone: dry ? 'neutral' : 'bad' };
    case 'failed':
      return { text: dry ? 'dry run failed' : 'failed', tone: 'bad' };
    case 'cancelled':
      return { text: 'cancelled', tone: 'bad' };
  }
}

function sourcesOf(job: ImportJobDocument): string {
  const tag = job.parameters.tag;
  const named = Array.isArray(tag) ? tag.join(', ') : tag;
  const { done, total } = job.progress.sources;
  const count = total === null ? `${done} sources read` : `source ${Math.min(done + 1, total)} of ${total}`;
  return named ? `${named} (${count})` : count;
}

function errorText(job: ImportJobDocument): string {
  const details = job.error?.details;
  return typeof details === 'string' ? details : (details?.message ?? job.error?.error ?? '');
}

function bar(job: ImportJobDocument): HTMLElement {
  const value = percent(job);
  if (value === undefined && isFinished(job)) return el('span', {}, 'size unknown');
  return el(
    'span',
    { class: 'bar' },
    el('progress', {
      max: '100',
      'aria-label': `Progress of job ${job.id}`,
      value: value === undefined ? undefined : String(value),
    }),
    value === undefined ? null : el('span', {}, `${value}%`),
  );
}

/**
 * The running and queued imports, each with a progress bar fed by its event stream, its phase,
 * rate, a smoothed time left and a Cancel button that asks first; the last few finished jobs
 * folded below them (dry runs leave no log, so this is where they show). `onFinished` is told when
 * a job it showed running ends, so that the log list can take it in.
 */
export class JobsPanel {
  readonly element = el('section', { 'aria-labelledby': 'jobs-title' });
  private readonly list = el('ul', { class: 'jobs' });
  private readonly recent = el('details', { class: 'recent' });
  private readonly status = el('div', { 'aria-live': 'polite' });
  private readonly dialog = el('dialog', { 'aria-labelledby': 'cancel-title' });
  private readonly jobs = new Map<string, ImportJobDocument>();
  private readonly followed = new Set<string>();
  private readonly timeLeft = new Map<string, { estimator: TimeLeft; seconds?: number }>();

  constructor(
    private readonly signal: AbortSignal,
    private readonly onFinished: (job: ImportJobDocument) => void,
  ) {
    this.element.append(
      el('h2', { id: 'jobs-title' }, 'Running imports'),
      this.status,
      this.list,
      this.recent,
      this.dialog,
    );
  }

  /** Shows the jobs and keeps them current; only a refused token stops the page. */
  async start(): Promise<void> {
    await this.refreshOrSay();
    const timer = setInterval(() => void this.refreshOrSay().catch(() => undefined), POLL_MS);
    this.signal.addEventListener('abort', () => clearInterval(timer));
  }

  private async refreshOrSay(): Promise<void> {
    try {
      await this.refresh();
    } catch (error) {
      if (error instanceof Unauthorised) throw error;
      show(this.status, messageBox(`Could not list the jobs: ${String(error)}`, 'error'));
    }
  }

  private async refresh(): Promise<void> {
    const answer = await getJson<ImportJobDocument[] | { items: ImportJobDocument[] }>('/import/jobs');
    const jobs = Array.isArray(answer) ? answer : answer.items;
    for (const job of jobs) {
      const known = this.jobs.get(job.id);
      // An event stream's news is fresher than a list asked for before it.
      if (known === undefined || !isFinished(known)) this.take(job);
      if (!isFinished(job)) this.follow(job.id);
    }
    this.render();
  }

  private take(job: ImportJobDocument): void {
    this.jobs.set(job.id, job);
    const { read, total } = job.progress.bytes;
    if (isFinished(job) || total === null || job.phase === 'receiving') return;
    let entry = this.timeLeft.get(job.id);
    if (entry === undefined) this.timeLeft.set(job.id, (entry = { estimator: new TimeLeft() }));
    entry.seconds = entry.estimator.add({ seconds: job.elapsedSeconds, done: read, total });
  }

  private follow(id: string): void {
    if (this.followed.has(id)) return;
    this.followed.add(id);
    const update = (data: unknown) => {
      if (!data || typeof data !== 'object' || !('state' in data)) return;
      const job = data as ImportJobDocument;
      const wasRunning = !isFinished(this.jobs.get(id) ?? job);
      this.take(job);
      this.render();
      if (isFinished(job) && wasRunning) this.onFinished(job);
    };
    followEvents(`/import/jobs/${encodeURIComponent(id)}/events`, update, this.signal)
      .catch(() => undefined)
      .finally(() => this.followed.delete(id));
  }

  /** Asks before cancelling: the import is rolled back, and its work so far is lost. */
  private confirm(job: ImportJobDocument): Promise<boolean> {
    const what = `POST /import/${job.endpoint} by ${job.user}${job.scope ? ` into ${job.scope}` : ''}`;
    const form = el(
      'form',
      { method: 'dialog' },
      el('h2', { id: 'cancel-title' }, 'Cancel this import?'),
      el('p', {}, what, ', ', sourcesOf(job), '.'),
      el(
        'p',
        {},
        job.commit
          ? 'It is rolled back: nothing it read so far is written, and it must be started again.'
          : 'It is a dry run: nothing is written either way.',
      ),
      el(
        'div',
        { class: 'row' },
        el('button', { type: 'submit', value: 'cancel' }, 'Cancel the import'),
        el(
          'button',
          { type: 'submit', value: 'keep', class: 'secondary', autofocus: true },
          'Keep it running',
        ),
      ),
    );
    show(this.dialog, form);
    this.dialog.returnValue = '';
    this.dialog.showModal();
    return new Promise((resolve) =>
      this.dialog.addEventListener('close', () => resolve(this.dialog.returnValue === 'cancel'), {
        once: true,
      }),
    );
  }

  private async cancel(job: ImportJobDocument, button: HTMLButtonElement): Promise<void> {
    if (!(await this.confirm(job))) {
      // The card may have been redrawn while the dialog was open.
      this.list.querySelector<HTMLElement>(`[data-job="${CSS.escape(job.id)}"] button`)?.focus();
      return;
    }
    button.disabled = true;
    try {
      const answer = await deleteJson<ImportJobDocument | undefined>(
        `/import/jobs/${encodeURIComponent(job.id)}`,
      );
      if (answer && typeof answer === 'object' && 'state' in answer) this.take(answer);
      show(this.status, messageBox(`Cancelling job ${job.id}.`));
    } catch (error) {
      button.disabled = false;
      show(this.status, messageBox(`Could not cancel job ${job.id}: ${String(error)}`, 'error'));
    }
    this.render();
  }

  private render(): void {
    const jobs = [...this.jobs.values()].sort((a, b) => b.started.localeCompare(a.started));
    const active = jobs.filter((job) => !isFinished(job));
    const finished = jobs.filter(isFinished).slice(0, RECENT);
    // Cards are redrawn at each event: a keyboard user's place on a Cancel button is kept.
    const focused = document.activeElement?.closest('[data-job]')?.getAttribute('data-job');
    show(
      this.list,
      ...(active.length === 0
        ? [el('li', {}, 'No import is running or queued.')]
        : active.map((job) => this.card(job))),
    );
    // Rebuilt in place, so that an operator's opening of the fold stays.
    show(
      this.recent,
      el('summary', {}, `Finished lately (${finished.length}); every committed import has its log below`),
      finished.length === 0 ? el('p', {}, 'None since the service started.') : this.finishedTable(finished),
    );
    if (focused) this.list.querySelector<HTMLElement>(`[data-job="${CSS.escape(focused)}"] button`)?.focus();
  }

  private card(job: ImportJobDocument): HTMLElement {
    const { progress } = job;
    const state = stateWords(job);
    const cancel = el('button', { type: 'button', class: 'secondary' }, 'Cancel');
    cancel.setAttribute('aria-label', `Cancel job ${job.id}`);
    cancel.addEventListener('click', () => void this.cancel(job, cancel));
    const left = this.timeLeft.get(job.id)?.seconds;
    return el(
      'li',
      { class: 'job', 'data-job': job.id, 'data-state': job.state },
      el(
        'div',
        { class: 'row' },
        el('strong', {}, `POST /import/${job.endpoint}`),
        el('span', { class: `tone-${state.tone}` }, state.text),
        job.phase ? el('span', {}, `phase: ${job.phase}`) : null,
        el('span', {}, 'by ', job.user),
        job.scope ? el('span', {}, 'into ', el('code', {}, job.scope)) : null,
      ),
      el('div', { class: 'row' }, sourcesOf(job)),
      bar(job),
      el(
        'div',
        { class: 'row' },
        el('span', {}, `${progress.items} items read`),
        el(
          'span',
          {},
          `${progress.created} created, ${progress.updated} updated, ${progress.unchanged} unchanged`,
        ),
        progress.errors > 0 ? el('span', {}, `${progress.errors} errors`) : null,
        el(
          'span',
          { class: 'time-left' },
          'time left ',
          progress.bytes.total === null ? 'unknown' : left === undefined ? 'estimating…' : duration(left),
        ),
        el('span', {}, 'started ', time(job.started)),
      ),
      el('div', { class: 'row' }, cancel),
    );
  }

  private finishedTable(jobs: ImportJobDocument[]): HTMLElement {
    const headers = ['Outcome', 'Import', 'Progress', 'Counts', 'Finished', 'Log'];
    const rows = jobs.map((job) => {
      const state = stateWords(job);
      const { progress } = job;
      const cells: Node[] = [
        el('span', { class: `tone-${state.tone}` }, state.text),
        el('span', {}, `POST /import/${job.endpoint} by ${job.user}`, el('br'), sourcesOf(job)),
        bar(job),
        document.createTextNode(
          job.commit && (job.state === 'failed' || job.state === 'cancelled')
            ? `${progress.items} items read, none written (rolled back)`
            : `${progress.created} created, ${progress.updated} updated, ${progress.unchanged} unchanged`,
        ),
        time(job.finished),
        job.event
          ? el('a', { href: `/console/logs/${encodeURIComponent(job.event)}` }, 'Its import log')
          : el('span', {}, job.error ? errorText(job) : 'none (nothing stored)'),
      ];
      return el(
        'tr',
        { 'data-job': job.id, 'data-state': job.state },
        ...cells.map((cell, index) => el('td', { 'data-label': headers[index] }, cell)),
      );
    });
    return el(
      'div',
      { class: 'table-wrap stacks' },
      el(
        'table',
        {},
        el('caption', { class: 'visually-hidden' }, 'Import jobs finished lately'),
        el('thead', {}, el('tr', {}, ...headers.map((header) => el('th', { scope: 'col' }, header)))),
        el('tbody', {}, ...rows),
      ),
    );
  }
}

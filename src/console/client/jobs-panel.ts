import { deleteJson, followEvents, getJson, Unauthorised } from './api.js';
import { duration, el, messageBox, show, time } from './dom.js';
import { FINISHED_STATES, ImportJobDocument } from './types.js';

/** How often the list of jobs is asked for again, to find jobs started since. */
const POLL_MS = 2000;

function isFinished(job: ImportJobDocument): boolean {
  return FINISHED_STATES.includes(job.state);
}

function percent(job: ImportJobDocument): number | undefined {
  const { read, total } = job.progress.bytes;
  if (isFinished(job)) return 100;
  return total ? Math.min(100, Math.floor((read / total) * 100)) : undefined;
}

function rate(job: ImportJobDocument): string {
  if (job.elapsedSeconds <= 0 || job.progress.items === 0) return '—';
  return `${Math.round(job.progress.items / job.elapsedSeconds)} items/s`;
}

/**
 * Running and recent import jobs, each with a progress bar fed by its event stream, its phase, rate
 * and time left, and a Cancel button while it runs. `onFinished` is told when a job it showed
 * running ends, so that the log list can take it in.
 */
export class JobsPanel {
  readonly element = el('section', { 'aria-labelledby': 'jobs-title' });
  private readonly list = el('ul', { class: 'jobs' });
  private readonly status = el('div', { 'aria-live': 'polite' });
  private readonly jobs = new Map<string, ImportJobDocument>();
  private readonly followed = new Set<string>();

  constructor(
    private readonly signal: AbortSignal,
    private readonly onFinished: (job: ImportJobDocument) => void,
  ) {
    this.element.append(el('h2', { id: 'jobs-title' }, 'Import jobs'), this.status, this.list);
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
      if (known === undefined || !isFinished(known)) this.jobs.set(job.id, job);
      if (!isFinished(job)) this.follow(job.id);
    }
    this.render();
  }

  private follow(id: string): void {
    if (this.followed.has(id)) return;
    this.followed.add(id);
    const update = (data: unknown) => {
      if (!data || typeof data !== 'object' || !('state' in data)) return;
      const job = data as ImportJobDocument;
      const wasRunning = !isFinished(this.jobs.get(id) ?? job);
      this.jobs.set(id, job);
      this.render();
      if (isFinished(job) && wasRunning) this.onFinished(job);
    };
    followEvents(`/import/jobs/${encodeURIComponent(id)}/events`, update, this.signal)
      .catch(() => undefined)
      .finally(() => this.followed.delete(id));
  }

  private async cancel(job: ImportJobDocument, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      const answer = await deleteJson<ImportJobDocument | undefined>(
        `/import/jobs/${encodeURIComponent(job.id)}`,
      );
      if (answer && typeof answer === 'object' && 'state' in answer) this.jobs.set(job.id, answer);
      show(this.status, messageBox(`Cancelling job ${job.id}.`));
    } catch (error) {
      button.disabled = false;
      show(this.status, messageBox(`Could not cancel job ${job.id}: ${String(error)}`, 'error'));
    }
    this.render();
  }

  private render(): void {
    const jobs = [...this.jobs.values()].sort((a, b) => b.started.localeCompare(a.started));
    if (jobs.length === 0) {
      show(this.list, el('li', {}, 'No import is running, and none ran lately.'));
      return;
    }
    show(this.list, ...jobs.map((job) => this.card(job)));
  }

  private card(job: ImportJobDocument): HTMLElement {
    const value = percent(job);
    const label = `Progress of job ${job.id}`;
    const bar = el('progress', {
      max: '100',
      'aria-label': label,
      value: value === undefined ? undefined : String(value),
    });
    const { progress } = job;
    const cancel = el('button', { type: 'button', class: 'secondary' }, 'Cancel');
    cancel.setAttribute('aria-label', `Cancel job ${job.id}`);
    cancel.addEventListener('click', () => void this.cancel(job, cancel));
    return el(
      'li',
      { class: 'job', 'data-job': job.id, 'data-state': job.state },
      el(
        'div',
        { class: 'row' },
        el('strong', {}, `POST /import/${job.endpoint}`),
        el('span', { class: `state-${job.state}` }, job.state),
        job.phase ? el('span', {}, `phase: ${job.phase}`) : null,
        el('span', {}, 'by ', job.user),
        job.scope ? el('span', {}, 'into ', el('code', {}, job.scope)) : null,
      ),
      bar,
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
        el('span', {}, `rate ${rate(job)}`),
        isFinished(job) ? null : el('span', {}, `time left ${duration(job.remainingSeconds)}`),
        el('span', {}, 'started ', time(job.started)),
      ),
      el(
        'div',
        { class: 'row' },
        isFinished(job) ? null : cancel,
        job.event
          ? el('a', { href: `/console/logs/${encodeURIComponent(job.event)}` }, 'Its import log')
          : null,
        job.error ? el('span', { class: 'state-failed' }, job.error.error, ': ', errorText(job)) : null,
      ),
    );
  }
}

function errorText(job: ImportJobDocument): string {
  const details = job.error?.details;
  return typeof details === 'string' ? details : (details?.message ?? '');
}

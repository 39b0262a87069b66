import { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { buildConsole, launchChromium, screenshot, seriousViolations } from './support/browser';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { eadOf } from './support/job-events';
import { holdNextImport } from './support/job-holds';

/**
 * The console's jobs in a real Chromium: a running import's progress bar fed by its event stream,
 * its end moving it from the running jobs to the history without a reload, Cancel asked for and
 * confirmed, a dry run told apart, and a large log's ids paged. Imports are held mid-write by a
 * test hold on the runner (test/support/job-holds.ts), never by sleeping.
 */
describe('operators’ console: import jobs (browser)', () => {
  let t: ImportTestApp;
  let browser: Browser;
  let page: Page;
  let ops: string;
  let base: string;

  beforeAll(async () => {
    buildConsole();
    t = await createImportTestApp();
    ops = await t.token('ops');
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${base}/console`);
    await page.getByLabel('Token').fill(ops);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('No import is running or queued.').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const postAsync = (scope: string, body: string, commit = true) =>
    t
      .post('ead', { scope, commit: String(commit), tag: `${scope}.xml` })
      .set('Content-Type', 'application/xml')
      .set('Prefer', 'respond-async')
      .send(body)
      .expect(202);
  const unitsIn = async (repository: string) =>
    (
      await t.store.read((tx) =>
        tx.search({ scope: { id: repository, depth: 'descendants' }, offset: 0, limit: 1 }),
      )
    ).total;
  const running = (jobId: string) => page.locator(`ul.jobs [data-job="${jobId}"]`);
  const finished = (jobId: string) => page.locator(`details.recent tr[data-job="${jobId}"]`);
  const progressIn = async (place: ReturnType<Page['locator']>) =>
    Number(await place.locator('progress').getAttribute('value'));
  const jobDocument = async (jobId: string) =>
    (await request(t.server).get(`/import/jobs/${jobId}`).set('Authorization', `Bearer ${ops}`).expect(200))
      .body as { state: string; progress: { bytes: { read: number; total: number } } };

  it('shows a running job on top, then moves it to the history when it ends, without a reload', async () => {
    await t.addRepository('ra');
    await t.addRepository('rq');
    const hold = holdNextImport(t.app);
    const job = (await postAsync('ra', eadOf('fa', 3000))).body as { id: string };
    await hold.reached;

    await page.locator(`ul.jobs [data-job="${job.id}"][data-state="running"]`).waitFor();
    // One writer: a second import waits, shown on top too.
    const queued = (await postAsync('rq', eadOf('fq', 5))).body as { id: string };
    await page.locator(`ul.jobs [data-job="${queued.id}"][data-state="queued"]`).waitFor();
    await expect(running(queued.id).locator('.tone-neutral').textContent()).resolves.toBe('queued');
    await expect(running(job.id).textContent()).resolves.toContain('phase: writing');
    await expect(running(job.id).textContent()).resolves.toContain('ra.xml');
    await expect(running(job.id).locator('.time-left').textContent()).resolves.toMatch(/^time left /);
    const held = await progressIn(running(job.id));
    expect(held).toBeLessThan(100);
    // The running job stands above the logs.
    const jobTop = (await running(job.id).boundingBox())!.y;
    const logsTop = (await page.getByRole('heading', { name: 'Import logs' }).boundingBox())!.y;
    expect(jobTop).toBeLessThan(logsTop);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'console-job-running');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'console-job-running-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.evaluate('window.notReloaded = true');
    hold.release();
    await page.locator(`details.recent tr[data-job="${job.id}"][data-state="committed"]`).waitFor({
      state: 'attached',
    });
    await expect(running(job.id).count()).resolves.toBe(0);
    await finished(queued.id).and(page.locator('[data-state="committed"]')).waitFor({ state: 'attached' });
    await page.locator('details.recent summary').click();
    expect(await progressIn(finished(job.id))).toBe(100);
    const logLink = finished(job.id).getByRole('link', { name: 'Its import log' });
    const logId = (await logLink.getAttribute('href'))!.split('/').pop()!;
    await page.locator('section[aria-labelledby="logs-title"] tbody tr', { hasText: logId }).waitFor();
    await expect(page.evaluate('window.notReloaded')).resolves.toBe(true);
    expect(await unitsIn('ra')).toBe(3001);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'console-job-committed');
  });

  it('pages a large log’s ids rather than listing them all', async () => {
    const logs = await request(t.server)
      .get('/import/logs')
      .set('Authorization', `Bearer ${ops}`)
      .expect(200);
    const logId = (logs.body.items as { id: string; scope: string }[]).find((log) => log.scope === 'ra')!.id;
    await page.goto(`${base}/console/logs/${logId}`);
    await page.getByRole('heading', { name: 'Created (3001)' }).waitFor();
    const items = page.locator('section', { has: page.getByRole('heading', { name: 'Items' }) });
    await expect(items.locator('li').count()).resolves.toBe(50);
    const pager = page.getByRole('navigation', { name: 'Pages of created items' });
    await expect(pager.textContent()).resolves.toContain('Page 1 of 61');
    const first = await items.locator('li').first().textContent();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 61').waitFor();
    await expect(items.locator('li').count()).resolves.toBe(50);
    await expect(items.locator('li').first().textContent()).resolves.not.toBe(first);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await page.goto(`${base}/console`);
    await page.getByText('No import is running or queued.').waitFor();
  });

  it('asks before cancelling; cancelled, the job keeps the bar where it stopped and nothing is written', async () => {
    await t.addRepository('rc');
    const hold = holdNextImport(t.app);
    const job = (await postAsync('rc', eadOf('fc', 3000))).body as { id: string };
    await hold.reached;
    const cancel = page.getByRole('button', { name: `Cancel job ${job.id}` });
    await page.locator('section[aria-labelledby="logs-title"] tbody tr').first().waitFor();
    await running(job.id).waitFor();
    await screenshot(page, 'console-overview');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'console-overview-375');
    await page.setViewportSize({ width: 1280, height: 900 });
    await cancel.click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this import?' });
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain('rc.xml');
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'console-job-cancel-asked');
    await dialog.getByRole('button', { name: 'Keep it running' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect(jobDocument(job.id)).resolves.toMatchObject({ state: 'running' });
    await expect(page.evaluate("document.activeElement.getAttribute('aria-label')")).resolves.toBe(
      `Cancel job ${job.id}`,
    );
    // Escape keeps it running too.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect(jobDocument(job.id)).resolves.toMatchObject({ state: 'running' });

    await cancel.click();
    await dialog.getByRole('button', { name: 'Cancel the import' }).click();
    await finished(job.id).and(page.locator('[data-state="cancelled"]')).waitFor({ state: 'attached' });
    hold.release();
    expect(await unitsIn('rc')).toBe(0);
    const { bytes } = (await jobDocument(job.id)).progress;
    expect(bytes.read).toBeLessThan(bytes.total);
    await page.locator('details.recent').evaluate((details) => details.setAttribute('open', ''));
    expect(await progressIn(finished(job.id))).toBe(Math.floor((bytes.read / bytes.total) * 100));
    await screenshot(page, 'console-job-cancelled');
  });

  it('calls a finished dry run a dry run, in neutral, with no log', async () => {
    await t.addRepository('rd');
    const job = (await postAsync('rd', eadOf('fd', 20), false)).body as { id: string };
    await page
      .locator(`details.recent tr[data-job="${job.id}"][data-state="rolled-back"]`)
      .waitFor({ state: 'attached' });
    const outcome = finished(job.id).locator('td[data-label="Outcome"] span');
    await expect(outcome.textContent()).resolves.toBe('dry run');
    await expect(outcome.getAttribute('class')).resolves.toBe('tone-neutral');
    await expect(finished(job.id).textContent()).resolves.toContain('nothing stored');
    await expect(finished(job.id).textContent()).resolves.not.toContain('rolled');
  });

  it('smooths the time left, and gives none before enough is done', async () => {
    // A slow first second (10 units), then a steady 100 units a second, out of 10,000.
    const samples = [1, 2, 3, 4, 5, 6, 8, 10, 15].map((seconds) => ({
      seconds,
      done: 10 + 100 * (seconds - 1),
      total: 10000,
    }));
    const estimates = (await page.evaluate(
      `import('/console/assets/estimate.js').then(({ TimeLeft }) => {
        const left = new TimeLeft();
        return ${JSON.stringify(samples)}.map((sample) => left.add(sample) ?? null);
      })`,
    )) as (number | null)[];
    // Under 5% done: no estimate.
    expect(estimates.slice(0, 5)).toEqual([null, null, null, null, null]);
    samples.forEach(({ seconds, done, total }, index) => {
      if (index < 5) return;
      const truth = (total - done) / 100;
      const overall = (seconds * (total - done)) / done;
      const smoothed = estimates[index]!;
      expect(Math.abs(smoothed - truth)).toBeLessThan(Math.abs(overall - truth));
      expect(Math.abs(smoothed - truth) / truth).toBeLessThan(0.1);
    });
  });
});

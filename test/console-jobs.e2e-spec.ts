import { Browser, Page } from 'playwright-core';
import { ImportJobsService } from '../src/import-jobs/import-jobs.service';
import { buildConsole, launchChromium, screenshot, seriousViolations } from './support/browser';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { eadOf } from './support/job-events';

/**
 * The console's jobs in a real Chromium: a running import's progress bar fed by its event stream,
 * its end turning into its log's row without a reload, and Cancel. Imports are held mid-write by
 * the jobs service's test hold, never by sleeping.
 */
describe('operators’ console: import jobs (browser)', () => {
  let t: ImportTestApp;
  let jobs: ImportJobsService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    buildConsole();
    t = await createImportTestApp();
    jobs = t.app.get(ImportJobsService);
    const ops = await t.token('ops');
    await t.app.listen(0, '127.0.0.1');
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
    await page.goto(`${base}/console`);
    await page.getByLabel('Token').fill(ops);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('No import is running, and none ran lately.').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const postAsync = (scope: string, body: string) =>
    t
      .post('ead', { scope, commit: 'true', tag: `${scope}.xml` })
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
  const progressOf = async (jobId: string) =>
    Number(await page.locator(`[data-job="${jobId}"] progress`).getAttribute('value'));

  it('shows a running job’s progress, then its end as committed and its log’s row, without a reload', async () => {
    await t.addRepository('ra');
    const hold = jobs.holdNext('writing');
    const job = (await postAsync('ra', eadOf('fa', 3000))).body as { id: string };
    await hold.reached;

    const card = page.locator(`[data-job="${job.id}"]`);
    await page.locator(`[data-job="${job.id}"][data-state="running"]`).waitFor();
    await expect(card.textContent()).resolves.toContain('phase: writing');
    const held = await progressOf(job.id);
    expect(held).toBeLessThan(100);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'console-job-running');

    await page.evaluate('window.notReloaded = true');
    hold.release();
    await page.locator(`[data-job="${job.id}"][data-state="committed"]`).waitFor();
    expect(await progressOf(job.id)).toBe(100);
    expect(await progressOf(job.id)).toBeGreaterThan(held);
    const logLink = card.getByRole('link', { name: 'Its import log' });
    const logId = (await logLink.getAttribute('href'))!.split('/').pop()!;
    await page.locator('table tbody tr', { hasText: logId }).waitFor();
    await expect(page.evaluate('window.notReloaded')).resolves.toBe(true);
    expect(await unitsIn('ra')).toBe(3001);
    await screenshot(page, 'console-job-committed');
  });

  it('cancels a running job with its Cancel button: it ends cancelled and nothing is written', async () => {
    await t.addRepository('rc');
    const hold = jobs.holdNext('writing');
    const job = (await postAsync('rc', eadOf('fc', 3000))).body as { id: string };
    await hold.reached;
    await page.getByRole('button', { name: `Cancel job ${job.id}` }).click();
    await page.locator(`[data-job="${job.id}"][data-state="cancelled"]`).waitFor();
    expect(await unitsIn('rc')).toBe(0);
    await screenshot(page, 'console-job-cancelled');
  });
});

import { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { buildConsole, launchChromium, screenshot, seriousViolations } from './support/browser';
import { addReferenceRepository, ehriFixture, importEadIntoR1 } from './support/ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './support/import-client';

const ORIGINAL = ehriFixture('ead.xml').toString('utf8');
const REVISED = ORIGINAL.replace(
  '<unittitle encodinganalog="3.1.2">Test EAD Item</unittitle>',
  '<unittitle>Revised Item</unittitle>',
);

/** The operators' console in a real Chromium, over the real app listening on a port. */
describe('operators’ console (browser)', () => {
  let t: ImportTestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let ops: string;
  let updateLog: string;
  let failedLog: string;

  beforeAll(async () => {
    buildConsole();
    t = await createImportTestApp();
    await addReferenceRepository(t);
    ops = await t.token('ops');
    await importEadIntoR1(t, ORIGINAL, { log: 'first load', tag: 'first.xml' }).expect(201);
    updateLog = (
      await importEadIntoR1(t, REVISED, {
        'allow-update': 'true',
        log: 'retitled',
        tag: 'revised.xml',
      }).expect(201)
    ).body.event;
    await importEadIntoR1(t, '<ead><archdesc><did><unitid>x</unitid></did>', { log: 'broken' }).expect(400);
    const failed = await request(t.server)
      .get('/import/logs')
      .query({ outcome: 'failed' })
      .set('Authorization', `Bearer ${ops}`);
    failedLog = failed.body.items[0].id;
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signIn(token: string): Promise<void> {
    await page.getByLabel('Token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('serves its page with a strict Content-Security-Policy and nothing from elsewhere', async () => {
    const response = await request(t.server).get('/console').expect(200);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.text).not.toMatch(/https?:\/\//);
    await request(t.server).get('/console/assets/..%2Fpackage.json').expect(404);
    await request(t.server).get('/console/assets/index.html').expect(404);
  });

  it('signs in with an ops token kept for the tab, refusing another, and shows the logs newest first', async () => {
    await page.goto(`${base}/console`);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'console-sign-in');
    await signIn(t.importToken);
    await page.getByText('That token is not a valid ops token.').waitFor();

    // By keyboard alone: the field, the token, Enter.
    await page.getByLabel('Token').focus();
    await page.keyboard.type(ops);
    await page.keyboard.press('Enter');
    const rows = page.locator('section[aria-labelledby="logs-title"] table tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(3);
    await expect(rows.first().textContent()).resolves.toContain('failed');
    await expect(rows.nth(1).textContent()).resolves.toContain('retitled');
    await expect(rows.nth(1).textContent()).resolves.toContain('0 created, 1 updated, 0 unchanged');
    expect(page.url()).not.toContain(ops);
    await expect(page.evaluate("sessionStorage.getItem('archival-console-token')")).resolves.toBe(ops);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'console-logs');
  });

  it('lists each log by its sources and a failure by its error’s own words, not its status phrase', async () => {
    const rows = page.locator('section[aria-labelledby="logs-title"] table tbody tr');
    const failed = rows.first().locator('td[data-label="Result"]');
    await expect(failed.textContent()).resolves.toMatch(/Malformed|unclosed|XML/i);
    await expect(failed.textContent()).resolves.not.toMatch(/^Bad Request$/);
    await expect(rows.nth(1).locator('td[data-label="Sources"]').textContent()).resolves.toBe(
      `revised.xml (log ${updateLog})`,
    );
    await expect(rows.nth(2).locator('td[data-label="Sources"]').textContent()).resolves.toMatch(
      /^first\.xml/,
    );
  });

  it('offers every outcome in its filter, cancelled and interrupted included, and filters by it', async () => {
    const options = await page.getByLabel('Outcome').locator('option').allTextContents();
    expect(options).toEqual(['any', 'succeeded', 'failed', 'cancelled', 'interrupted']);
    await page.getByLabel('Outcome').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/outcome=failed/);
    await page.getByText('Page 1 of 1 (1 logs)').waitFor();
    await expect(page.locator('section[aria-labelledby="logs-title"] tbody tr').count()).resolves.toBe(1);
    await page.getByLabel('Outcome').selectOption('cancelled');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No import log matches.').waitFor();
    await page.getByLabel('Outcome').selectOption('succeeded');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('Page 1 of 1 (2 logs)').waitFor();
  });

  it('opens an update’s log with its items and its changes in plain words, before and after side by side', async () => {
    await page.getByRole('link', { name: updateLog }).click();
    await page.waitForURL(`${base}/console/logs/${updateLog}`);
    await page.getByRole('heading', { name: `Import log ${updateLog}` }).waitFor();
    await expect(
      page.getByRole('link', { name: 'nl-r1-test_doc' }).first().getAttribute('href'),
    ).resolves.toBe(`/console/logs/${updateLog}/items/nl-r1-test_doc`);
    const change = page.locator('tr', { hasText: 'English description → Name' });
    await expect(change.locator('.where').getAttribute('data-path')).resolves.toBe(
      'describes[nl-r1-test_doc.eng-c00001_eng].name',
    );
    await expect(change.locator('.change-before').textContent()).resolves.toBe('Test EAD Item');
    await expect(change.locator('.change-after').textContent()).resolves.toBe('Revised Item');
    await expect(page.locator('main').textContent()).resolves.not.toContain('describes[');
    await expect(page.locator('dl.facts').first().textContent()).resolves.toContain('retitled');
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'console-log-update');
  });

  it('opens an item from its log in the console’s own view, signed in, with no refused call', async () => {
    const refused: string[] = [];
    const watch = (response: { status(): number; url(): string }) => {
      if (response.status() === 401 || response.status() === 403) refused.push(response.url());
    };
    page.on('response', watch);
    await page.getByRole('link', { name: 'nl-r1-test_doc' }).first().click();
    await page.waitForURL(`${base}/console/logs/${updateLog}/items/nl-r1-test_doc`);
    await page.getByRole('heading', { name: 'Item nl-r1-test_doc' }).waitFor();
    await expect(page.locator('dl.facts').textContent()).resolves.toMatch(/updated, from /);
    await page.locator('tr', { hasText: 'English description → Name' }).waitFor();
    // A reload of the item's address shows it again: the link works on its own.
    await page.reload();
    await page.getByRole('heading', { name: 'Item nl-r1-test_doc' }).waitFor();
    page.off('response', watch);
    expect(refused).toEqual([]);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'console-item');
  });

  it('names change paths in plain words', async () => {
    const words = await page.evaluate(
      `import('/console/assets/words.js').then((m) => [
        'describes[nl-r1-x.eng-test_desc_id_eng].extentAndMedium',
        'describes[nl-r1-x.deu].relatesTo[nl-r1-x.deu.ap1]',
        'describes[nl-r1-x.fra-a].hasDate[d1].startDate',
        'edges.heldBy',
        'name',
      ].map(m.pathWords))`,
    );
    expect(words).toEqual([
      'English description → Extent and medium',
      'German description → Access point',
      'French description → Date → Start date',
      'Link: held by',
      'Name',
    ]);
  });

  it('opens a failed import’s log by its link after a reload, with its error’s line and column', async () => {
    await page.goto(`${base}/console/logs/${failedLog}`);
    await page.getByRole('heading', { name: 'Errors' }).waitFor();
    const error = page.locator('section', { hasText: 'Errors' }).locator('tbody tr').first();
    await expect(error.textContent()).resolves.toMatch(/Malformed|unclosed|XML/i);
    await expect(
      page.locator('section', { hasText: 'Errors' }).locator('tbody td').nth(2).textContent(),
    ).resolves.toMatch(/^\d+$/);
    await screenshot(page, 'console-log-failed');
  });

  it('reads at 320 px wide without sideways scrolling: the logs table stacks into cards', async () => {
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto(`${base}/console`);
    const row = page.locator('section[aria-labelledby="logs-title"] table tbody tr').first();
    await row.waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    const wrap = page.locator('section[aria-labelledby="logs-title"] .table-wrap');
    await expect(wrap.evaluate((element) => element.scrollWidth - element.clientWidth)).resolves.toBe(0);
    expect((await row.boundingBox())!.width).toBeLessThanOrEqual(320);
    await expect(seriousViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'console-logs-320');
    await page.goto(`${base}/console/logs/${updateLog}`);
    await page.getByRole('heading', { name: 'What the updates changed' }).waitFor();
    await expect(
      page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth'),
    ).resolves.toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'console-log-update-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows what imports were given as text, never as markup', async () => {
    const markup = '<img src="x" onerror="window.pwned = true">';
    await importEadIntoR1(t, ORIGINAL, {
      'allow-update': 'true',
      log: markup,
      tag: '<b>bold</b>.xml',
    }).expect(201);
    await page.goto(`${base}/console`);
    const row = page.locator('section[aria-labelledby="logs-title"] tbody tr').first();
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(markup);
    await expect(row.textContent()).resolves.toContain('<b>bold</b>.xml');
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: 'Parameters' }).waitFor();
    await expect(page.locator('main img, main b').count()).resolves.toBe(0);
    await expect(page.evaluate('window.pwned')).resolves.toBeUndefined();
  });

  it('asks for the token again once it is refused', async () => {
    await page.evaluate("sessionStorage.setItem('archival-console-token', 'not-a-token')");
    await page.goto(`${base}/console`);
    await page.getByText('The token was refused; sign in again.').waitFor();
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Browser, chromium, Page } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs; `CHROMIUM_PATH` names another. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PROJECT = path.resolve(__dirname, '..', '..');
/** Where browser tests leave their screenshots, to be looked at. */
export const SCREENSHOTS = path.join(PROJECT, 'test-results', 'screenshots');

/** Builds the console's page and scripts as `npm run build` does, so the app under test serves them. */
export function buildConsole(): void {
  execFileSync(
    process.execPath,
    [
      path.join(PROJECT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'src/console/client/tsconfig.json',
    ],
    {
      cwd: PROJECT,
      stdio: 'inherit',
    },
  );
  execFileSync(process.execPath, ['scripts/copy-console-assets.mjs'], { cwd: PROJECT, stdio: 'inherit' });
}

/** A headless Chromium; fails with what to do when it is not installed (tests are never skipped for it). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}

/** Saves a full-page screenshot under `test-results/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The accessibility violations of serious or critical impact on the page as it is, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}

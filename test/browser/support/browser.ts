/**
 * Debian's Chromium (/usr/bin/chromium, never a downloaded browser) driven by playwright-core, with
 * a fresh profile folder, plus what every page test checks: requests that leave 127.0.0.1 and
 * console errors. Screenshots go to one folder of the OS temp folder that each run overwrites.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser with its own new profile (the profile folder lives in the test run's temp folder). */
export function launch(): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    acceptDownloads: true,
    viewport: { width: 1440, height: 1000 },
  });
}

export interface WatchedPage {
  readonly page: Page;
  /** Every URL the page asked for. */
  readonly requests: string[];
  readonly consoleErrors: string[];
  /** URLs that went anywhere but 127.0.0.1 (blob: and data: URLs stay in the page). */
  offHost(): string[];
}

export async function openPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
  return {
    page,
    requests,
    consoleErrors,
    offHost: () =>
      requests.filter((u) => {
        const url = new URL(u);
        if (url.protocol === 'blob:' || url.protocol === 'data:') return false;
        return url.hostname !== '127.0.0.1';
      }),
  };
}

/** The run's own temp folder is removed at its end; screenshots go beside it, to be looked at. */
export const SCREENSHOT_DIR = join(
  dirname(process.env.NL2SQL_TEST_TEMP_ROOT ?? join(tmpdir(), 'x')),
  'nl2sql-playground-screenshots',
);

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

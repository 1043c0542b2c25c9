/**
 * Rating answers and curating suggestions in the playground, in a real browser against the real
 * app and the scripted model: thumbs up on two paraphrased questions, a correction the service
 * refuses (its code shown), the admin's suggestion built from the two, accepted, and the next
 * paraphrase answered by it with no model call. Requests stay on 127.0.0.1; the console is clean.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { buildWeb } from '../../src/web/build';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { customersByCountryModel } from '../support/customers-model';
import { CHROMIUM, launch, openPage, screenshot } from './support/browser';

let fake: FakeModelServer;
let app: RunningApp;
let browser: BrowserContext;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  const web = join(tmpdir(), 'web-feedback');
  await buildWeb(web);
  process.env.NL2SQL_WEB_DIR = web;
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role: 'admin' },
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      planner_format: 'sql',
    },
  });
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await fake?.close();
});

async function ask(page: Page, question: string): Promise<void> {
  await page.fill('#question', question);
  await page.click('#ask');
  await page.locator('#run-status:not(.running)').waitFor();
  await page.locator('#feedback').waitFor();
}

it('rates answers, shows a refused correction, and turns two rated paraphrases into a verified query', async () => {
  const model = customersByCountryModel(fake);
  const { page, offHost, consoleErrors } = await openPage(browser);
  await page.goto(`${app.url}/`);
  await page.waitForSelector('.datasource');
  // An admin sees the suggestions panel.
  await page.locator('#suggestions-panel:not([hidden])').waitFor();

  for (const question of ['Which customers live in France?', 'Customers based in Finland']) {
    await ask(page, question);
    await page.click('#rate-up');
    await page.fill('#feedback-comment', 'right');
    await page.click('#feedback-send');
    await page.locator('#feedback-outcome.ok').waitFor();
    expect(await page.textContent('#feedback-outcome')).toBe('Thanks: rated up.');
  }

  await ask(page, 'Which customers live in Spain?');
  await page.click('#rate-down');
  // The correction starts from the run's own SQL.
  expect(await page.inputValue('#feedback-sql')).toMatch(/FROM "customers"/);
  await page.fill('#feedback-sql', 'SELECT nme FROM customers');
  await page.click('#feedback-send');
  await page.locator('#feedback-outcome.error').waitFor();
  expect(await page.textContent('#feedback-outcome')).toMatch(
    /^CORRECTED_SQL_INVALID: corrected_sql: UNKNOWN_COLUMN/,
  );
  await screenshot(page, 'feedback-refused-correction');

  await page.click('#suggestions-load');
  const suggestion = page.locator('.suggestion', { hasText: 'Which customers live in :country?' });
  await suggestion.waitFor();
  expect(await suggestion.locator('.paraphrases').textContent()).toBe('Customers based in :country');
  expect(await suggestion.locator('.evidence').textContent()).toContain('rated up 2 · down 0');
  expect(await suggestion.locator('.params').textContent()).toContain(':country string');
  await suggestion.locator('.suggestion-id').fill('customers_in_country');
  await suggestion.locator('button.accept').click();
  await suggestion.locator('.outcome.ok').waitFor();
  expect(await suggestion.locator('.outcome').textContent()).toBe(
    "verified query 'customers_in_country' added",
  );
  await screenshot(page, 'suggestion-accepted');

  const planned = model.counts.sql_draft;
  await page.fill('#question', 'Customers based in France');
  await page.click('#ask');
  await page.locator('#run-status:not(.running)').waitFor();
  expect(await page.textContent('#run-source')).toBe(
    'source: verified · customers_in_country · {"country":"France"}',
  );
  expect(model.counts.sql_draft).toBe(planned);
  expect(offHost()).toEqual([]);
  // The browser logs the refused correction's 422 itself; nothing else.
  expect(consoleErrors).toEqual([
    'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
  ]);
  await page.close();
});

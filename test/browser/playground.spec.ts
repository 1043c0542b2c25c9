/**
 * The playground page in a real browser (Debian's Chromium through playwright-core) against the
 * real app and the scripted fake model: a run shown live, its SQL, table, paging, chart and CSV;
 * a verified query answering a sample question of the demo; error codes; the role header and the
 * LLM settings panel. Every request stays on 127.0.0.1 and the console stays free of errors.
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_DATASOURCE, DEMO_VERIFIED_QUERIES, ensureDemoDatabase } from '../../src/demo';
import type { OperatorEvent } from '../../src/engine/events/operator-events';
import * as P from '../../src/engine/plan/build';
import { buildWeb } from '../../src/web/build';
import { startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { PipelineModel } from '../support/pipeline-model';
import { CHROMIUM, launch, openPage, screenshot, type WatchedPage } from './support/browser';
import { makeSalesFixture, SALES_DAYS } from './support/sales-fixture';
import { OperatorEvents } from '../../src/engine/events/operator-events';

const dailyRevenue = P.query(
  P.select({
    columns: [P.item(P.col('day')), P.item(P.agg('sum', P.col('revenue')), 'revenue')],
    from: P.table('daily_sales'),
    groupBy: [P.col('day')],
  }),
  { orderBy: [P.order(P.col('day'))] },
);
const DAILY_SUMMARY = 'Revenue rose slowly over the 90 days, with a peak at the start of each week.';

let fake: FakeModelServer;
let app: RunningApp;
let browser: BrowserContext;
let salesPath: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  const web = join(tmpdir(), 'web');
  await buildWeb(web);
  process.env.NL2SQL_WEB_DIR = web;
  const demoPath = join(tmpdir(), 'demo', 'demo.duckdb');
  await ensureDemoDatabase(demoPath, { scale: 0.02 });
  salesPath = makeSalesFixture();
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role: 'admin' },
    // The fake model scripts the decomposer's answer (and a failure of it): always ask it.
    settings: { pipeline: { decompose: 'always' } },
    datasources: [
      { ...DEMO_DATASOURCE, connection: { path: demoPath } },
      {
        id: 'sales',
        type: 'sqlite',
        description: 'Daily sales of two regions',
        connection: { path: salesPath },
        sample_questions: ['What was the revenue per day?'],
      },
    ],
    verified_queries: DEMO_VERIFIED_QUERIES,
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
  });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

async function load(target: RunningApp): Promise<WatchedPage> {
  const watched = await openPage(browser);
  await watched.page.goto(`${target.url}/`);
  await watched.page.waitForSelector('.datasource');
  return watched;
}

async function finished(page: Page): Promise<string> {
  const status = page.locator('#run-status:not(.running)');
  await status.waitFor();
  return (await status.textContent()) ?? '';
}

/** Pixels of the chart's canvas that are not blank (Chart.js drew something). */
function inkedPixels(page: Page): Promise<number> {
  // Runs in the page; this file is type-checked without the DOM's types.
  return page.$eval('.chart canvas', (c: any) => {
    const data: Uint8ClampedArray = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
}

describe('the playground page', () => {
  it('shows a run live: steps with durations, the streamed answer, SQL, the paged table, a line chart and CSV', async () => {
    const model = new PipelineModel(fake)
      .single('sales')
      .on('query_plan', { json: { plan: dailyRevenue, unanswerable_reason: null }, delayMs: 700 })
      .on('answer', { text: DAILY_SUMMARY });
    const { page, offHost, consoleErrors } = await load(app);
    expect(page.url()).toBe(`${app.url}/playground`);

    await page.fill('#question', 'What was the revenue per day?');
    await page.selectOption('#datasource', 'sales');
    await page.click('#ask');
    // Live: the planner step shows as running while the model holds its answer.
    await page.locator('.step.running[data-node="ast_planner"]').waitFor();
    expect(await page.locator('.step.ok[data-node="decomposer"] .t').textContent()).toMatch(
      /^\d+ ms$|^\d+\.\d\d s$/,
    );
    expect(await finished(page)).toBe('success');

    const steps = await page.$$eval('.step', (els) =>
      els.map((e) => ({
        node: e.getAttribute('data-node'),
        cls: e.className,
        t: e.querySelector('.t')?.textContent,
      })),
    );
    expect(steps.map((s) => s.node)).toEqual([
      'datasource_resolver',
      'decomposer',
      'verified_resolver',
      'ast_planner',
      'logical_validator',
      'generator',
      'executor',
      'answer_synthesizer',
    ]);
    for (const s of steps) {
      expect(s.cls).toBe('step ok');
      expect(s.t).toMatch(/^\d+ ms$|^\d+\.\d\d s$/);
    }
    expect(await page.textContent('#answer-summary')).toBe(DAILY_SUMMARY);
    // The summary was built from the streamed pieces (answer.delta), not only set at the end.
    expect(Number(await page.getAttribute('#answer-summary', 'data-deltas'))).toBeGreaterThan(1);

    const sql = (await page.textContent('.sub-query pre.sql'))!;
    expect(sql).toMatch(/daily_sales/);
    const keywords = await page.$$eval('.sub-query pre.sql .hljs-keyword', (els) =>
      els.map((e) => e.textContent?.toUpperCase()),
    );
    expect(keywords).toEqual(expect.arrayContaining(['SELECT', 'FROM']));
    expect(await page.textContent('.sub-query .badge.plan')).toBe('plan: llm');

    await expect(page.locator('.pager-info').textContent()).resolves.toBe(`rows 1–25 of ${SALES_DAYS}`);
    expect(await page.locator('.result-table tbody tr').count()).toBe(25);
    await page.click('.pager-next');
    await page.locator('.pager-info', { hasText: `rows 26–50 of ${SALES_DAYS}` }).waitFor();
    const firstRow = await page.$$eval('.result-table tbody tr:first-child td', (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(firstRow.slice(0, 2)).toEqual(['26', '2024-01-26']);

    await page.locator('.chart[data-kind="line"] canvas').waitFor();
    expect(await inkedPixels(page)).toBeGreaterThan(2000);
    await screenshot(page, 'run-line-chart');
    await page.uncheck('.chart-toggle');
    expect(await page.locator('.chart').count()).toBe(0);
    await page.check('.chart-toggle');
    await page.locator('.chart[data-kind="line"] canvas').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('a.csv')]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(download.suggestedFilename()).toMatch(/_sq1\.csv$|\.csv$/);
    expect(csv[0]).toBe('day,revenue');
    expect(csv).toHaveLength(SALES_DAYS + 1);
    // Beside it, the same result as an Arrow IPC stream, typed.
    const [arrow] = await Promise.all([page.waitForEvent('download'), page.click('a.arrow')]);
    expect(arrow.suggestedFilename()).toMatch(/_sq1\.arrows$/);
    const table = tableFromIPC(readFileSync(await arrow.path()));
    expect(table.numRows).toBe(SALES_DAYS);
    expect(table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual([
      'day: Utf8',
      'revenue: Float64',
    ]);

    expect(await page.textContent('#run-source')).toBe('source: generated');
    const calls = fake.requests.length;
    expect(await page.textContent('#run-tokens')).toBe(
      `tokens: ${calls * 100} in · ${calls * 20} out · ${calls * 120} total`,
    );
    expect(await page.textContent('#run-cost')).toBe('cost: not priced');
    expect(model.counts.query_plan).toBe(1);
    expect(offHost()).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it("answers a demo sample question with its verified query: the year the question names, bars, source 'verified'", async () => {
    new PipelineModel(fake)
      .single('demo')
      .on('match_verified_query', { json: { matches: true, params: { year: 2024 } } })
      .on('answer', {
        text: 'Revenue per region in 2024, largest first; the table and the chart below hold the figures.',
      });
    const { page, offHost, consoleErrors } = await load(app);
    const samples = await page.$$eval('[data-datasource="demo"] button.sample', (els) =>
      els.map((e) => e.textContent),
    );
    expect(samples).toEqual(DEMO_DATASOURCE.sample_questions);
    await page.click(
      '[data-datasource="demo"] button.sample >> text=What was the total revenue per region in 2024?',
    );
    expect(await finished(page)).toBe('success');
    expect(await page.inputValue('#datasource')).toBe('demo');
    expect(await page.textContent('#run-source')).toBe(
      'source: verified · demo_revenue_per_region_for_year · {"year":2024}',
    );
    expect(await page.textContent('.sub-query .badge.plan')).toBe('plan: verified');
    expect(await page.textContent('.sub-query pre.sql')).toContain(':year');
    expect(await page.textContent('.pager-info')).toBe('rows 1–4 of 4');
    await page.locator('.chart[data-kind="bar"] canvas').waitFor();
    expect(await inkedPixels(page)).toBeGreaterThan(2000);
    // No planner call: the verified query answered.
    expect(fake.requests.some((r) => JSON.stringify(r.body).includes('query_plan'))).toBe(false);
    await screenshot(page, 'verified-bar-chart');
    expect(offHost()).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('shows a failed run with its error code and message', async () => {
    new PipelineModel(fake).on('decompose_question', { fail: 'rate_limit' });
    const { page, consoleErrors } = await load(app);
    await page.fill('#question', 'How many orders were there?');
    await page.selectOption('#datasource', 'sales');
    await page.click('#ask');
    expect(await finished(page)).toBe('error');
    const issue = page.locator('#issues li.error').first();
    expect(await issue.locator('code').textContent()).toBe('PROVIDER_RATE_LIMITED');
    expect(await issue.textContent()).toMatch(/rate limit/i);
    expect(await page.locator('.step.failed[data-node="decomposer"]').count()).toBe(1);
    await screenshot(page, 'run-error');
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('lists the index status and shows the settings panel to this admin', async () => {
    const { page, consoleErrors } = await load(app);
    await page.locator('#index-badge').waitFor();
    const status = (await (await fetch(`${app.url}/api/v1/index/status`)).json()) as { status: string };
    expect(await page.textContent('#index-badge')).toBe(status.status);
    await page.locator('#settings').waitFor();
    expect(JSON.parse(await page.inputValue('#llm-section'))).toEqual({
      provider: 'openai_compatible',
      model: 'fake-model',
      temperature: 0,
    });
    expect(consoleErrors).toEqual([]);
    await page.close();
  });
});

describe('the playground with roles from a header', () => {
  let headerApp: RunningApp;
  const audit: OperatorEvent[] = [];

  beforeAll(async () => {
    headerApp = await startApp({
      api: { role_header: 'X-Roles' },
      datasources: [{ id: 'sales', type: 'sqlite', connection: { path: salesPath } }],
      llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
      settings: { pipeline: { decompose: 'always' } },
    });
    headerApp.engine.get(OperatorEvents).subscribe((e) => {
      if (e.name.startsWith('audit.')) audit.push(e);
    });
  });
  afterAll(() => headerApp.close());

  async function setRoles(page: Page, roles: string): Promise<void> {
    const context = page.waitForResponse((r) => r.url().endsWith('/playground/context'));
    await page.fill('#roles', roles);
    await page.locator('#roles').blur();
    await context;
  }

  it('sends the typed roles in the header, shows the settings panel to admins only, and records replacements via playground', async () => {
    const { page, offHost, consoleErrors } = await load(headerApp);
    expect(await page.textContent('#role-box label')).toContain('Roles (X-Roles)');
    expect(await page.locator('#settings').isHidden()).toBe(true);

    await page.fill('#question', 'What was the revenue per day?');
    await page.click('#ask');
    expect(await finished(page)).toBe('error');
    expect(await page.textContent('#issues li.error code')).toBe('ROLE_REQUIRED');

    await setRoles(page, 'analyst');
    expect(await page.locator('#settings').isHidden()).toBe(true);
    await setRoles(page, 'analyst, admin');
    await page.locator('#settings').waitFor();

    // The section as listed has no base_url, which this provider needs: the 422 is shown as it is.
    await page.click('#llm-replace');
    await page.locator('#llm-outcome .error').waitFor();
    expect(await page.textContent('#llm-outcome')).toMatch(/base_url/);

    const section = {
      provider: 'openai_compatible',
      model: 'fake-model-2',
      base_url: fake.openaiBaseUrl,
      planner_format: 'plan',
    };
    await page.fill('#llm-section', JSON.stringify(section));
    await page.click('#llm-replace');
    await page.locator('#llm-outcome .ok').waitFor();
    expect(await page.textContent('#llm-outcome')).toContain('Replaced (via playground).');
    expect(await page.textContent('#llm-outcome')).toContain(
      'default: openai_compatible/fake-model → openai_compatible/fake-model-2',
    );
    const changed = audit.filter((e) => e.name === 'audit.llm.changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]!.data).toMatchObject({ via: 'playground', roles: ['analyst', 'admin'] });

    // With the role header, the CSV is fetched with it and saved from memory.
    new PipelineModel(fake)
      .single('sales')
      .on('query_plan', { json: { plan: dailyRevenue, unanswerable_reason: null } })
      .on('answer', { text: DAILY_SUMMARY });
    await page.fill('#question', 'What was the revenue per day, once more?');
    await page.click('#ask');
    expect(await finished(page)).toBe('success');
    expect(fake.requests.every((r) => r.body?.model === 'fake-model-2')).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('a.csv')]);
    expect(
      readFileSync(await download.path(), 'utf8')
        .trim()
        .split(/\r?\n/),
    ).toHaveLength(SALES_DAYS + 1);
    const [arrow] = await Promise.all([page.waitForEvent('download'), page.click('a.arrow')]);
    expect(tableFromIPC(readFileSync(await arrow.path())).numRows).toBe(SALES_DAYS);
    await screenshot(page, 'header-roles-settings');

    expect(offHost()).toEqual([]);
    // The browser logs each refused request; those two are the ones this test asked for.
    expect(consoleErrors).toHaveLength(2);
    expect(consoleErrors[0]).toMatch(/status of 401/);
    expect(consoleErrors[1]).toMatch(/status of 422/);
    await page.close();
  });
});

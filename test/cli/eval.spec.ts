/**
 * `nl2sql eval` as a user runs it (its own process) on the demo database (built small) with its
 * verified queries, against the scripted model: a model that writes each verified query's SQL
 * matches every question; when its answer to one question changes, the next run reports that
 * question as a regression against the saved run and exits 1.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_VERIFIED_QUERIES, ensureDemoDatabase } from '../../src/demo';
import { runNl2sql } from '../support/cli-process';
import { FakeModelServer } from '../support/fake-model';
import { PipelineModel, questionOf } from '../support/pipeline-model';

let fake: FakeModelServer;
let dir: string;
let configFile: string;

beforeAll(async () => {
  fake = await FakeModelServer.start();
  dir = mkdtempSync(join(tmpdir(), 'nl2sql-eval-'));
  const demo = join(dir, 'demo.duckdb');
  await ensureDemoDatabase(demo, { scale: 0.02 });
  configFile = join(dir, 'nl2sql.yaml');
  // JSON is YAML: the demo's own verified queries, on a small demo database.
  writeFileSync(
    configFile,
    JSON.stringify({
      api: { role: 'analyst' },
      datasources: [{ id: 'demo', type: 'duckdb', connection: { path: demo } }],
      verified_queries: DEMO_VERIFIED_QUERIES,
      llm: {
        provider: 'openai_compatible',
        model: 'fake-model',
        base_url: fake.openaiBaseUrl,
        planner_format: 'sql',
      },
      storage: {
        results: { path: join(dir, 'results') },
        traces: { path: join(dir, 'traces') },
        index: { path: join(dir, 'index') },
        knowledge: { path: join(dir, 'knowledge') },
      },
    }),
  );
}, 120_000);
afterAll(() => fake.close());
beforeEach(() => fake.reset());

/**
 * A model that answers each question with the SQL of the verified query it was asked from, the
 * values the question states written in; `wrong` answers one query's questions with other SQL.
 */
function verifiedModel(wrong: Record<string, string> = {}): PipelineModel {
  return new PipelineModel(fake)
    .single('demo')
    .on('sql_draft', (req) => {
      const asked = questionOf(req);
      const stated = /^(.*) \((.*)\)$/.exec(asked);
      const template = stated ? stated[1]! : asked;
      const values = Object.fromEntries(
        (stated?.[2] ?? '')
          .split('; ')
          .filter(Boolean)
          .map((kv) => kv.split(': ') as [string, string]),
      );
      const vq = DEMO_VERIFIED_QUERIES.find((v) => [v.question, ...(v.paraphrases ?? [])].includes(template));
      if (!vq) return { json: { sql: null, unanswerable_reason: `not a verified question: ${asked}` } };
      const sql =
        wrong[vq.id] ??
        vq.sql.replace(/:(\w+)/g, (_m, name: string) =>
          vq.params?.[name]?.type === 'string' ? `'${values[name]}'` : String(values[name]),
        );
      return { json: { sql, unanswerable_reason: null } };
    })
    .on('answer', { text: 'Here it is.' });
}

const nl2sql = (args: string[]) => runNl2sql(args, { cwd: dir });

it('matches every question of a model that writes the verified SQL, then reports the question whose answer changed', async () => {
  const model = verifiedModel();
  const first = await nl2sql(['eval', '--config', configFile]);
  expect(first.stderr).not.toMatch(/nl2sql: [A-Z_]+:/);
  expect(first.code).toBe(0);
  const saved = JSON.parse(readFileSync(join(dir, 'nl2sql-eval.json'), 'utf8'));
  const cases = saved.queries.flatMap((q: any) => q.cases);
  const expected = DEMO_VERIFIED_QUERIES.reduce((n, v) => n + 1 + (v.paraphrases?.length ?? 0), 0);
  expect(cases).toHaveLength(expected);
  expect(cases.filter((c: any) => c.status !== 'match')).toEqual([]);
  expect(saved.summary).toMatchObject({ cases: expected, matched: expected, skipped: 0, errors: 0 });
  // Every question went to the model: the verified fast path is off for the evaluated runs.
  expect(model.counts.sql_draft).toBe(expected);
  expect(first.stdout).toMatch(/demo_return_rate_by_category\s+\| question\s+\| yes/);
  expect(first.stdout).toContain(`${expected} of ${expected} questions match`);
  expect(first.stdout).toContain('no previous run to compare with: this run is the baseline');

  fake.reset();
  verifiedModel({
    demo_return_rate_by_category:
      'SELECT c.category_name, COUNT(*) AS returns FROM returns rt JOIN order_items oi ON oi.order_item_id = rt.order_item_id JOIN products p ON p.product_id = oi.product_id JOIN categories c ON c.category_id = p.category_id GROUP BY c.category_name',
  });
  const second = await nl2sql(['eval', '--config', configFile, '--json']);
  expect(second.code).toBe(1);
  const report = JSON.parse(second.stdout);
  const paraphrases = DEMO_VERIFIED_QUERIES.find(
    (v) => v.id === 'demo_return_rate_by_category',
  )!.paraphrases!;
  expect(report.regressions.map((r: any) => [r.query_id, r.template, r.status])).toEqual(
    ['Which product categories have the highest return rate?', ...paraphrases].map((t) => [
      'demo_return_rate_by_category',
      t,
      'mismatch',
    ]),
  );
  const changed = report.queries.find((q: any) => q.id === 'demo_return_rate_by_category').cases[0];
  expect(changed).toMatchObject({
    match: false,
    status: 'mismatch',
    sql: expect.stringContaining('"returns"'),
  });
  expect(changed.calls).toBeGreaterThan(0);
  expect(changed.tokens).toBeGreaterThan(0);
});

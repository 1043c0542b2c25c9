/** The index routes (spec 4.12-4.15) and the index used by the resolver to route between datasources. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as P from '../../src/engine/plan/build';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel, userText } from '../support/pipeline-model';

function hrDatabase(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'nl2sql-hr-')), 'hr.sqlite');
  const db = new Database(path);
  db.exec(`
    CREATE TABLE departments (dept_id INTEGER PRIMARY KEY, dept_name TEXT NOT NULL);
    CREATE TABLE employees (employee_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, dept_id INTEGER REFERENCES departments(dept_id), salary REAL, hire_date TEXT);
    INSERT INTO departments VALUES (1, 'Engineering'), (2, 'Sales');
    INSERT INTO employees VALUES (1, 'Grace Hopper', 1, 120000, '2020-01-05'), (2, 'Alan Turing', 1, 115000, '2021-03-01'), (3, 'Joan Clarke', 2, 90000, '2019-07-15');
  `);
  db.close();
  return path;
}

let fake: FakeModelServer;
let app: RunningApp;
const admin = { 'X-Roles': 'admin' };

beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [
      {
        id: 'shop',
        type: 'sqlite',
        connection: { path: makeSqliteFixture() },
        description: 'Web shop customers and their orders',
      },
      {
        id: 'hr',
        type: 'sqlite',
        connection: { path: hrDatabase() },
        description: 'Employees, departments and salaries',
      },
    ],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const status = async () => (await http('GET', `${app.url}/api/v1/index/status`)).json();

describe('index routes', () => {
  it('goes missing -> ok per datasource -> ok for all -> cleared', async () => {
    expect((await status()).status).toBe('missing');

    const one = await http('POST', `${app.url}/api/v1/index/shop`, { headers: admin });
    expect(one.status).toBe(200);
    const body = one.json();
    expect(body).toMatchObject({ success: true, datasource_id: 'shop' });
    expect(body.indexing_stats.entries).toBeGreaterThan(0);
    expect(body.indexing_stats.counts['schema.table']).toBe(2);
    // hr is configured but not indexed yet: the index is stale, and says how to fix it.
    const partial = await status();
    expect(partial.status).toBe('stale');
    expect(partial.problems.map((p: any) => p.datasource_id)).toContain('hr');

    const all = await http('POST', `${app.url}/api/v1/index-all`, { headers: admin });
    expect(all.status).toBe(200);
    expect(all.json().success).toBe(true);
    expect(
      all
        .json()
        .indexing_results.stats.map((s: any) => s.datasource_id)
        .sort(),
    ).toEqual(['hr', 'shop']);
    expect(all.json().indexing_results.errors).toEqual([]);
    const ok = await status();
    expect(ok.status).toBe('ok');
    expect(ok.datasources.map((d: any) => d.datasource_id).sort()).toEqual(['hr', 'shop']);
    expect(ok.counts['schema.column']).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown datasource, as the datasource routes do', async () => {
    const res = await http('POST', `${app.url}/api/v1/index/warehouse`, { headers: admin });
    expect(res.status).toBe(404);
    expect(res.json().error_code).toBe('NOT_FOUND');
    expect(res.json().detail).toMatch(/unknown datasource 'warehouse'/);
    expect((await http('GET', `${app.url}/api/v1/datasource/warehouse`)).status).toBe(404);
  });

  it('answers 500 naming the reason when a datasource cannot be indexed', async () => {
    // Known to the engine, but its file is gone: it cannot be opened, so it cannot be indexed.
    const gone = join(mkdtempSync(join(tmpdir(), 'nl2sql-gone-')), 'warehouse.sqlite');
    const added = await http('POST', `${app.url}/api/v1/datasource`, {
      headers: admin,
      body: { config: { id: 'warehouse', type: 'sqlite', connection: { path: gone } } },
    });
    expect(added.status).toBe(200);
    try {
      const res = await http('POST', `${app.url}/api/v1/index/warehouse`, { headers: admin });
      expect(res.status).toBe(500);
      expect(res.json().detail).toMatch(/^indexing 'warehouse' failed: .*warehouse/);
    } finally {
      await http('DELETE', `${app.url}/api/v1/datasource/warehouse`, { headers: admin });
    }
  });

  it('routes a question through the index, without asking the model which datasource', async () => {
    const plan = P.query(
      P.select({ columns: [P.item(P.countStar(), 'employees')], from: P.table('employees') }),
    );
    // The decomposer keeps the resolver's best candidate: the first datasource its prompt lists.
    const model = new PipelineModel(fake)
      .on('decompose_question', (req) => {
        const first = /Datasources \(best first\):\n- ([a-z_]+):/.exec(userText(req))?.[1] ?? 'none';
        return { json: { sub_queries: [{ intent: 'How many employees are there?', datasource_id: first }] } };
      })
      .on('query_plan', { json: { plan, unanswerable_reason: null } })
      .on('answer', { text: 'There are 3 employees.' });
    const res = await http('POST', `${app.url}/api/v1/query`, {
      headers: { 'X-Roles': 'analyst' },
      body: { natural_language: 'How many employees are there?' },
    });
    const body = res.json();
    expect(body.status).toBe('success');
    expect(body.sub_queries[0].datasource_id).toBe('hr');
    expect(body.sub_queries[0].rows.rows).toEqual([[3]]);
    expect(model.counts.route_question).toBeUndefined();
  });

  it('clears the index and says what it removed', async () => {
    const res = await http('DELETE', `${app.url}/api/v1/index`, { headers: admin });
    expect(res.status).toBe(200);
    expect(res.json().success).toBe(true);
    expect(res.json().removed.removed_entries).toBeGreaterThan(0);
    expect((await status()).status).toBe('missing');
  });
});

/**
 * A CSV download the client leaves early releases what the export holds: its scratch slices in the
 * temp folder are removed (issue 19, item 2: with `pipe` they stayed for good, 96 MB each).
 */
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import * as P from '../../src/engine/plan/build';
import { startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';

jest.setTimeout(60_000);

const ROWS = 300_000;
let fake: FakeModelServer;
let app: RunningApp;
let csvPath: string;

const scratch = () => readdirSync(tmpdir()).filter((f) => f.startsWith('nl2sql-csv-'));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting: ${what}`);
}

beforeAll(async () => {
  fake = await FakeModelServer.start();
  const path = join(mkdtempSync(join(tmpdir(), 'nl2sql-big-')), 'big.duckdb');
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  await conn.run(
    `CREATE TABLE big AS SELECT range AS n, 'row number ' || range AS label FROM range(${ROWS})`,
  );
  conn.closeSync();
  instance.closeSync();
  app = await startApp({
    api: { role: 'analyst' },
    datasources: [{ id: 'big', type: 'duckdb', connection: { path }, limits: { row_cap: 1_000_000 } }],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
  });
  const plan = P.query(P.select({ columns: [P.col('n'), P.col('label')], from: P.table('big') }), {
    orderBy: [P.order(P.col('n'))],
  });
  new PipelineModel(fake)
    .single('big')
    .on('query_plan', { json: { plan, unanswerable_reason: null } })
    .on('answer', { text: 'Many rows.' });
  const body = (
    await http('POST', `${app.url}/api/v1/query`, { body: { natural_language: 'Every row of big' } })
  ).json();
  expect(body.sub_queries[0].status).toBe('success');
  csvPath = `/api/v1/query/${body.trace_id}/results/${body.sub_queries[0].id}.csv`;
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

it('removes the scratch slices of a download the client abandons after its first bytes', async () => {
  expect(scratch()).toEqual([]);
  const url = new URL(csvPath, app.url);
  await new Promise<void>((resolve, reject) => {
    const req = request(url, (res) => {
      expect(res.statusCode).toBe(200);
      res.once('data', () => {
        // The export is under way: its slices are on disk. Then the client goes.
        req.destroy();
        resolve();
      });
      res.on('error', () => undefined);
    });
    req.on('error', () => undefined);
    req.on('error', reject).end();
  });
  await until(() => scratch().length === 0, 'the abandoned export to remove its scratch slices');
  // The service still exports the same result whole afterwards.
  const whole = await http('GET', `${app.url}${csvPath}`);
  expect(whole.status).toBe(200);
  expect(whole.text.trim().split('\n')).toHaveLength(ROWS + 1);
  expect(scratch()).toEqual([]);
});

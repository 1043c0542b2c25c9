/**
 * Schema linking in the planner (issue 6, item 4): on a large schema the planner's prompt holds the
 * retrieved tables (and the tables on the join path between them), not the whole schema.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as P from '../../src/engine/plan/build';
import { startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel, promptText } from '../support/pipeline-model';

const TOPICS = [
  'invoice',
  'shipment',
  'warehouse',
  'supplier',
  'employee',
  'payroll',
  'campaign',
  'ticket',
  'vehicle',
  'contract',
  'asset',
  'budget',
  'lead',
  'course',
  'patient',
  'device',
  'license',
  'project',
  'incident',
  'survey',
  'tenant',
  'recipe',
];

function largeDatabase(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'nl2sql-large-')), 'erp.sqlite');
  const db = new Database(path);
  for (const t of TOPICS) {
    db.exec(
      `CREATE TABLE ${t}s (${t}_id INTEGER PRIMARY KEY, ${t}_name TEXT, ${t}_status TEXT, ${t}_amount REAL, created_on TEXT, region_code TEXT)`,
    );
    db.exec(`INSERT INTO ${t}s VALUES (1, '${t} one', 'open', 10.5, '2024-01-01', 'EU')`);
  }
  db.exec(
    'CREATE TABLE shipment_lines (line_id INTEGER PRIMARY KEY, shipment_id INTEGER REFERENCES shipments(shipment_id), vehicle_id INTEGER REFERENCES vehicles(vehicle_id), weight_kg REAL)',
  );
  db.close();
  return path;
}

let fake: FakeModelServer;
let app: RunningApp;
beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role: 'admin' },
    datasources: [{ id: 'erp', type: 'sqlite', connection: { path: largeDatabase() } }],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

it('gives the planner the retrieved tables, not the whole schema, once the index is built', async () => {
  expect((await http('POST', `${app.url}/api/v1/index/erp`)).status).toBe(200);
  const plan = P.query(
    P.select({
      columns: [P.item(P.agg('sum', P.col('weight_kg')), 'total_weight')],
      from: P.table('shipment_lines'),
    }),
  );
  const model = new PipelineModel(fake)
    .single('erp')
    .on('query_plan', { json: { plan, unanswerable_reason: null } })
    .on('answer', { text: 'The total shipped weight is recorded per line.' });
  const body = (
    await http('POST', `${app.url}/api/v1/query`, {
      body: { natural_language: 'What is the total weight in kg of all shipment lines?' },
    })
  ).json();
  expect(body.status).toBe('success');
  const prompt = promptText(model.requestsOf('query_plan')[0]!);
  const tables = [...prompt.matchAll(/^CREATE TABLE (\w+)/gm)].map((m) => m[1]);
  expect(tables).toContain('shipment_lines');
  expect(tables.length).toBeGreaterThan(0);
  expect(tables.length).toBeLessThan(TOPICS.length);
  expect(tables).not.toContain('recipes');
});

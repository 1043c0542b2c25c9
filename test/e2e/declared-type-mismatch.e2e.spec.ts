/**
 * Issue 23, item 7, over HTTP: a plain SELECT whose SQLite column is declared BOOLEAN but holds
 * 'T'/'F' (as in held-out Spider data), with an INTEGER column holding text, succeeds; the
 * response's inline rows are the rows the result pages return.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as P from '../../src/engine/plan/build';
import { startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';

let fake: FakeModelServer;
let app: RunningApp;

beforeAll(async () => {
  fake = await FakeModelServer.start();
  const path = join(mkdtempSync(join(tmpdir(), 'nl2sql-mismatch-')), 'school.sqlite');
  const db = new Database(path);
  db.exec(`
    CREATE TABLE teacher (id INTEGER PRIMARY KEY, name TEXT, Is_full_time BOOLEAN, age INTEGER);
    INSERT INTO teacher VALUES (1, 'Ann', 'T', 41), (2, 'Bo', 'F', 'unknown'), (3, 'Cy', 'T', 37);
  `);
  db.close();
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [{ id: 'school', type: 'sqlite', connection: { path } }],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
  });
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
});

it('answers with the rows as stored, and the result pages give the same rows', async () => {
  const plan = P.query(
    P.select({
      columns: [P.col('name'), P.col('Is_full_time'), P.col('age')],
      from: P.table('teacher'),
    }),
    { orderBy: [P.order(P.col('id'))] },
  );
  new PipelineModel(fake)
    .single('school')
    .on('query_plan', { json: { plan, unanswerable_reason: null } })
    .on('answer', { text: 'Three teachers.' });
  const res = await http('POST', `${app.url}/api/v1/query`, {
    body: { natural_language: 'Which teachers work full time?' },
    headers: { 'X-Roles': 'analyst' },
  });
  const body = res.json();
  expect(body.errors).toEqual([]);
  const sq = body.sub_queries[0];
  expect(sq.status).toBe('success');
  expect(sq.rows.rows).toEqual([
    ['Ann', 'T', '41'],
    ['Bo', 'F', 'unknown'],
    ['Cy', 'T', '37'],
  ]);
  const page = (
    await http('GET', `${app.url}/api/v1/query/${body.trace_id}/results/${sq.id}`, {
      headers: { 'X-Roles': 'analyst' },
    })
  ).json();
  expect(page.rows).toEqual(sq.rows.rows);
});

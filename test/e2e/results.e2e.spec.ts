/** The result routes over HTTP (spec 4.3, 4.4): paging at the edges, CSV, and the 404 rules. */
import * as P from '../../src/engine/plan/build';
import { startApp, type RunningApp } from '../support/app';
import { shopOn } from '../support/databases';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';

let fake: FakeModelServer;
let app: RunningApp;
let traceId: string;
beforeAll(async () => {
  fake = await FakeModelServer.start();
  const ds = await shopOn('sqlite');
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [ds.config],
    llm: { provider: 'openai_compatible', model: 'fake-model', base_url: fake.openaiBaseUrl },
  });
  const plan = P.query(
    P.select({ columns: [P.col('id'), P.col('customer_id'), P.col('amount')], from: P.table('orders') }),
    {
      orderBy: [P.order(P.col('id'))],
    },
  );
  new PipelineModel(fake)
    .single('shop')
    .on('query_plan', { json: { plan, unanswerable_reason: null } })
    .on('answer', { text: 'Three orders.' });
  const res = await http('POST', `${app.url}/api/v1/query`, {
    body: { natural_language: 'List the orders' },
    headers: { 'X-Roles': 'analyst' },
  });
  traceId = res.json().trace_id;
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const get = (path: string, roles: string | null = 'analyst') =>
  http('GET', `${app.url}/api/v1/query/${path}`, { headers: roles ? { 'X-Roles': roles } : {} });

describe('paging', () => {
  it('pages from the start with next_offset, and ends with next_offset null', async () => {
    const first = (await get(`${traceId}/results/sq1?limit=2`)).json();
    expect(first).toEqual({
      request_id: traceId,
      result_id: 'sq1',
      columns: ['id', 'customer_id', 'amount'],
      rows: [
        [1, 1, 10.5],
        [2, 1, 20],
      ],
      offset: 0,
      limit: 2,
      total_rows: 3,
      next_offset: 2,
    });
    const last = (await get(`${traceId}/results/sq1?offset=2&limit=2`)).json();
    expect(last.rows).toEqual([[3, 2, 7.25]]);
    expect(last.next_offset).toBeNull();
  });

  it('returns no rows past the end, cuts limits above 1000, defaults to 100', async () => {
    const past = (await get(`${traceId}/results/sq1?offset=10`)).json();
    expect(past.rows).toEqual([]);
    expect(past.next_offset).toBeNull();
    expect((await get(`${traceId}/results/sq1?limit=5000`)).json().limit).toBe(1000);
    expect((await get(`${traceId}/results/sq1`)).json().limit).toBe(100);
  });

  it('answers 422 for a negative offset or a limit below 1', async () => {
    expect((await get(`${traceId}/results/sq1?offset=-1`)).status).toBe(422);
    expect((await get(`${traceId}/results/sq1?limit=0`)).status).toBe(422);
    expect((await get(`${traceId}/results/sq1?limit=abc`)).status).toBe(422);
  });
});

describe('CSV', () => {
  it('sends the whole result as an attachment, header first', async () => {
    const res = await get(`${traceId}/results/sq1.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${traceId}_sq1.csv"`);
    expect(res.text.trim().split(/\r?\n/)).toEqual([
      'id,customer_id,amount',
      '1,1,10.5',
      '2,1,20.0',
      '3,2,7.25',
    ]);
  });
});

describe('404 and 401 rules', () => {
  it.each([
    ['an unknown request', () => `0123456789abcdef/results/sq1`],
    ['a result not in the manifest', () => `${traceId}/results/sq9`],
    ['a result id with a dot', () => `${traceId}/results/sq1.parquet`],
    ['a traversal in the request id', () => `..%2F..%2Fetc/results/sq1`],
  ])('answers 404 for %s, indistinguishably', async (_label, path) => {
    const res = await get(path());
    expect(res.status).toBe(404);
    expect(res.json().detail).toBe('Result not found');
  });

  it('answers 401 without a role', async () => {
    expect((await get(`${traceId}/results/sq1`, null)).status).toBe(401);
    expect((await get(`${traceId}/results/sq1.csv`, null)).status).toBe(401);
  });
});

/**
 * Issue 23 item 3: model-written text reaches callers redacted and capped. The scripted model
 * server plays a model (or a proxy) that echoes the API key it received, the datasource's password
 * and a header value in its planner's `unanswerable_reason`, its router's `reason` and its answer;
 * none of them reaches the `/query` body, the SSE stream (the answer's pieces split the key), an
 * MCP tool result (the SDK's client over HTTP) or the command line's output. A 20 MB reason is cut
 * to the documented cap with its mark.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MODEL_TEXT_MAX_CHARS, TRUNCATION_MARK } from '../../src/engine/redaction/model-text';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer, type RecordedRequest } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel } from '../support/pipeline-model';
import { policyShopOn, type PolicyShop } from '../support/policy-shop';
import { openSse } from '../support/sse';

// Secrets that match none of the redactor's patterns: only the set of live secrets can catch them.
const KEY = 'proxy-Key-7fQ2xLm9ZrWq';
const PG_PASSWORD = 'pg-Pass-Hq4Vn8Ty2';
const HEADER = 'team-Token-Jd6Rk1Ps5';
const SECRETS = [KEY, PG_PASSWORD, HEADER];

let fake: FakeModelServer;
let app: RunningApp;
let shop: PolicyShop;
let llm: Record<string, unknown>;
let warehouse: Record<string, unknown>;

/** What the fake model echoes: the key from the request it received, and the other secrets. */
function echo(req: RecordedRequest): string {
  const received = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  expect(received).toBe(KEY); // the provider really received the key it echoes
  return `the key you sent is ${received}; the database password is ${PG_PASSWORD}; header ${req.headers['x-team-token']}`;
}

beforeAll(async () => {
  fake = await FakeModelServer.start();
  shop = await policyShopOn('postgres', 'warehouse');
  const config = shop.config as { connection: Record<string, unknown> };
  warehouse = { ...shop.config, connection: { ...config.connection, password: PG_PASSWORD } };
  llm = {
    provider: 'openai_compatible',
    model: 'fake-model',
    base_url: fake.openaiBaseUrl,
    api_key: KEY,
    headers: { 'X-Team-Token': HEADER },
    planner_format: 'sql',
  };
  app = await startApp({
    api: { role: 'analyst' },
    datasources: [warehouse, { id: 'notes', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    llm,
  });
});
afterAll(async () => {
  await app?.close();
  await fake.close();
  await shop.drop();
});
beforeEach(() => fake.reset());

const expectNoSecret = (text: string) => {
  for (const s of SECRETS) expect(text).not.toContain(s);
};

/** The planner declines with a reason that echoes every secret. */
const unanswerable = () =>
  new PipelineModel(fake).on('sql_draft', (req) => ({
    json: { sql: null, unanswerable_reason: `cannot answer: ${echo(req)}` },
  }));

describe('the planner reason', () => {
  it('is redacted in errors[].message of /query', async () => {
    unanswerable();
    const res = await http('POST', `${app.url}/api/v1/query`, {
      body: { natural_language: 'What is the weather?', datasource_id: 'warehouse' },
    });
    const body = res.json();
    expect(body.errors[0]).toMatchObject({ error_code: 'QUESTION_UNANSWERABLE' });
    expect(body.errors[0].message).toContain('the key you sent is ***; the database password is ***');
    expectNoSecret(res.text);
  });

  it('is redacted on the stream', async () => {
    unanswerable();
    const sse = openSse(`${app.url}/api/v1/query/stream`, {
      natural_language: 'What is the weather?',
      datasource_id: 'warehouse',
    });
    await sse.ended;
    expect(sse.events.at(-1)!.data.data.result.errors[0].error_code).toBe('QUESTION_UNANSWERABLE');
    expectNoSecret(JSON.stringify(sse.events));
  });

  it('is redacted in the MCP tool result', async () => {
    unanswerable();
    const client = new Client({ name: 'redaction-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
    try {
      const result = await client.callTool({
        name: 'ask',
        arguments: { question: 'What is the weather?', datasource_id: 'warehouse' },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result)).toContain('QUESTION_UNANSWERABLE');
      expectNoSecret(JSON.stringify(result));
    } finally {
      await client.close();
    }
  });

  it('is cut to the cap with its mark when a model writes 20 MB of it', async () => {
    new PipelineModel(fake).on('sql_draft', {
      json: { sql: null, unanswerable_reason: 'z'.repeat(20 * 1024 * 1024) },
    });
    const res = await http('POST', `${app.url}/api/v1/query`, {
      body: { natural_language: 'What is the weather?', datasource_id: 'warehouse' },
    });
    const message: string = res.json().errors[0].message;
    expect(message.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(message.length).toBeLessThan(MODEL_TEXT_MAX_CHARS + 200);
    expect(res.text.length).toBeLessThan(MODEL_TEXT_MAX_CHARS * 3);
  });
});

it("redacts the router's reason", async () => {
  // Two datasources, no index: the resolver asks the model, which declines, echoing the secrets.
  new PipelineModel(fake).on('route_question', (req) => ({
    json: { datasource_id: null, reason: echo(req) },
  }));
  const res = await http('POST', `${app.url}/api/v1/query`, { body: { natural_language: 'Anything?' } });
  const body = res.json();
  expect(body.errors[0].node).toBe('datasource_resolver');
  expect(body.errors[0].message).toContain('no datasource can answer this question: the key you sent is ***');
  expectNoSecret(res.text);
});

it('redacts an answer that echoes the key, though the stream splits it across pieces', async () => {
  let summary = '';
  new PipelineModel(fake)
    .on('sql_draft', { json: { sql: 'SELECT COUNT(*) AS n FROM customers', unanswerable_reason: null } })
    .on('answer', (req) => {
      // The fake streams a text in three pieces: the key straddles the first cut.
      const secret = echo(req);
      summary = `Two customers. ${secret}`;
      return { text: summary };
    });
  const sse = openSse(`${app.url}/api/v1/query/stream`, {
    natural_language: 'How many customers are there?',
    datasource_id: 'warehouse',
  });
  await sse.ended;
  const third = Math.ceil(summary.length / 3);
  expect(summary.indexOf(KEY)).toBeLessThan(third);
  expect(summary.indexOf(KEY) + KEY.length).toBeGreaterThan(third);
  const deltas = sse.events
    .filter((e) => e.event === 'answer.delta' && e.data.data.field === 'summary')
    .map((e) => e.data.data.text as string);
  expect(deltas.length).toBeGreaterThan(1);
  const joined = deltas.join('');
  expect(joined).toContain('the key you sent is ***');
  expectNoSecret(joined);
  const result = sse.events.at(-1)!.data.data.result;
  expect(result.final_answer.summary).toBe(joined);
  expectNoSecret(JSON.stringify(sse.events));
});

describe('the command line', () => {
  it('prints the reason redacted (text and --json)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nl2sql-redact-cli-'));
    const configFile = join(dir, 'nl2sql.yaml');
    writeFileSync(
      configFile,
      JSON.stringify({
        api: { role: 'analyst' },
        datasources: [warehouse],
        llm,
        storage: {
          results: { path: join(dir, 'results') },
          traces: { path: join(dir, 'traces') },
          index: { path: join(dir, 'index') },
        },
      }),
    );
    for (const json of [false, true]) {
      unanswerable();
      const r = await nl2sql([
        'ask',
        'What is the weather?',
        '--config',
        configFile,
        ...(json ? ['--json'] : []),
      ]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('QUESTION_UNANSWERABLE');
      expect(r.stdout).toContain('the key you sent is ***');
      expectNoSecret(r.stdout);
      expectNoSecret(r.stderr);
    }
  });
});

function nl2sql(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const bin = resolve(__dirname, '..', '..', 'bin', 'nl2sql.js');
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], { env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

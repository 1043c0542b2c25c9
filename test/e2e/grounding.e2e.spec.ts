/**
 * Grounding over real HTTP: once the index is built, the planner's prompt names the stored
 * spelling of the values a question mentions (never those of a column the caller's role may not
 * read), and carries the earlier runs most like the question as examples, of the caller's own
 * role scope only.
 */
import { SchemaIndex } from '../../src/engine/index/schema-index';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel, promptText, userText } from '../support/pipeline-model';

let fake: FakeModelServer;
let app: RunningApp;
const admin = { 'X-Roles': 'admin' };
const analyst = { 'X-Roles': 'analyst' };

beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    policies: { roles: { admin: {}, analyst: { columns: { deny: ['shop.customers.name'] } } } },
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      planner_format: 'sql',
    },
  });
  const built = await http('POST', `${app.url}/api/v1/index-all`, { headers: admin });
  expect(built.status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const ask = (natural_language: string, headers: Record<string, string>) =>
  http('POST', `${app.url}/api/v1/query`, { body: { natural_language }, headers });

const BY_COUNTRY = (country: string) =>
  `SELECT COUNT(*) AS orders FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = '${country}'`;

function scripted(sql: string): PipelineModel {
  return new PipelineModel(fake)
    .single('shop')
    .on('sql_draft', { json: { sql, unanswerable_reason: null } })
    .on('answer', { text: 'Done.' });
}

it('shows the stored spelling of a value the question names, marked as a match', async () => {
  const model = scripted(BY_COUNTRY('Finland'));
  const body = (await ask('How many orders came from finland?', analyst)).json();
  expect(body.status).toBe('success');
  const prompt = promptText(model.requestsOf('sql_draft')[0]!);
  expect(prompt).toMatch(/^ {2}country TEXT -- matches: 'Finland'/m);
  expect(prompt).toContain('CREATE TABLE customers');
});

it("never shows a value of a column the caller's role may not read", async () => {
  const denied = scripted('SELECT COUNT(*) AS n FROM customers');
  await ask('How many customers are called ada?', analyst);
  const asAnalyst = JSON.stringify(denied.requestsOf('sql_draft')[0]!.body);
  expect(asAnalyst).not.toContain("'Ada'");
  expect(asAnalyst).not.toContain('Linus');
  expect(promptText(denied.requestsOf('sql_draft')[0]!)).toMatch(
    /name TEXT NOT NULL, -- \[not readable by your role\]/,
  );

  fake.reset();
  const allowed = scripted('SELECT COUNT(*) AS n FROM customers');
  await ask('How many customers are called ada?', admin);
  expect(promptText(allowed.requestsOf('sql_draft')[0]!)).toContain("matches: 'Ada'");
});

it("carries an earlier similar run of the caller's scope as an example, not another role's", async () => {
  // The first test's run (analyst) is in the plan cache; this question is like it.
  const model = scripted(BY_COUNTRY('France'));
  await ask('How many orders came from France?', analyst);
  const user = userText(model.requestsOf('sql_draft')[0]!);
  expect(user).toContain('Similar questions answered on this datasource');
  expect(user).toContain('How many orders came from finland?');
  expect(user).toMatch(/'Finland'/);

  fake.reset();
  const other = scripted(BY_COUNTRY('France'));
  await ask('How many orders came from Finland, please?', admin);
  expect(userText(other.requestsOf('sql_draft')[0]!)).not.toContain('How many orders came from finland?');
});

describe('with storage.index.build_on_start', () => {
  it('builds a missing index in the background at start, then grounds questions', async () => {
    const started = await startApp({
      api: { role: 'analyst' },
      datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
      storage: { index: { build_on_start: true } },
      llm: {
        provider: 'openai_compatible',
        model: 'fake-model',
        base_url: fake.openaiBaseUrl,
        planner_format: 'sql',
      },
    });
    try {
      // Wait on the state itself (no sleep of a guessed length): the build takes well under a second.
      const index = started.engine.get(SchemaIndex);
      const deadline = Date.now() + 30_000;
      while (!index.live()?.values().size && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(index.live()?.values().size).toBeGreaterThan(0);
      expect((await http('GET', `${started.url}/api/v1/index/status`)).json().status).toBe('ok');
      const model = scripted(BY_COUNTRY('Finland'));
      const body = (
        await http('POST', `${started.url}/api/v1/query`, {
          body: { natural_language: 'Orders from FINLAND?' },
        })
      ).json();
      expect(body.status).toBe('success');
      expect(promptText(model.requestsOf('sql_draft')[0]!)).toContain("matches: 'Finland'");
    } finally {
      await started.close();
    }
  });
});

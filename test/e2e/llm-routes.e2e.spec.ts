/** The three LLM routes over HTTP (spec 4.9-4.11): bodies, status codes, atomic replace, no key ever returned. */
import type { OperatorEvent } from '../../src/engine/events/operator-events';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { http } from '../support/http';
import { OperatorEvents } from '../../src/engine/events/operator-events';

const KEY = 'sk-route-test-abcdef0123456789';
let app: RunningApp;
const audit: OperatorEvent[] = [];

beforeAll(async () => {
  app = await startApp(
    {
      api: { role_header: 'X-Roles' },
      datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
      llm: {
        provider: 'openai',
        model: 'gpt-4.1-mini',
        api_key: '${env:ROUTE_TEST_KEY}',
        agents: { ast_planner: { model: 'gpt-4.1' } },
      },
    },
    { env: { ...process.env, ROUTE_TEST_KEY: KEY } },
  );
  app.engine.get(OperatorEvents).subscribe((e) => {
    if (e.name.startsWith('audit.')) audit.push(e);
  });
});
afterAll(() => app.close());

const admin = { 'X-Roles': 'admin' };

describe('GET /api/v1/llm and /api/v1/llm/{agent}', () => {
  it('lists every agent, default first, with no key', async () => {
    const res = await http('GET', `${app.url}/api/v1/llm`);
    expect(res.status).toBe(200);
    const { llms } = res.json();
    expect(Object.keys(llms)[0]).toBe('default');
    expect(llms.default).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      temperature: 0,
      inherited: false,
    });
    expect(llms.ast_planner).toMatchObject({ provider: 'openai', model: 'gpt-4.1', inherited: false });
    expect(res.text).not.toContain(KEY);
    expect(res.text).not.toContain('api_key');
  });

  it('gets one agent, and answers 404 naming the valid agents for another', async () => {
    expect((await http('GET', `${app.url}/api/v1/llm/ast_planner`)).json().model).toBe('gpt-4.1');
    const missing = await http('GET', `${app.url}/api/v1/llm/nobody`);
    expect(missing.status).toBe(404);
    expect(missing.json().detail).toMatch(/default/);
    expect(missing.json().detail).toMatch(/ast_planner/);
  });
});

describe('PUT /api/v1/settings/llm', () => {
  it('refuses an unknown key with the closest valid one, and changes nothing', async () => {
    const res = await http('PUT', `${app.url}/api/v1/settings/llm`, {
      headers: admin,
      body: { provider: 'openai', model: 'gpt-4.1-nano', temprature: 0.2 },
    });
    expect(res.status).toBe(422);
    expect(res.json().detail).toMatch(/1 problem/);
    expect(res.json().detail).toMatch(
      /llm\.temprature: unknown key 'temprature' \(did you mean 'temperature'\?\)/,
    );
    expect((await http('GET', `${app.url}/api/v1/llm/default`)).json().model).toBe('gpt-4.1-mini');
  });

  it('refuses a key that does not resolve and a reference outside a secret field, changing nothing', async () => {
    const unresolved = await http('PUT', `${app.url}/api/v1/settings/llm`, {
      headers: admin,
      body: { provider: 'openai', model: 'gpt-4.1-nano', api_key: '${env:NL2SQL_TEST_UNSET_VARIABLE}' },
    });
    expect(unresolved.status).toBe(422);
    expect(unresolved.json().detail).toContain('NL2SQL_TEST_UNSET_VARIABLE');
    const misplaced = await http('PUT', `${app.url}/api/v1/settings/llm`, {
      headers: admin,
      body: { provider: 'openai', model: '${env:ROUTE_TEST_KEY}' },
    });
    expect(misplaced.status).toBe(422);
    expect(misplaced.text).not.toContain(KEY);
    const unknownProvider = await http('PUT', `${app.url}/api/v1/settings/llm`, {
      headers: admin,
      body: { provider: 'gamma', model: 'x' },
    });
    expect(unknownProvider.status).toBe(422);
    expect(unknownProvider.json().detail).toMatch(/Unsupported LLM provider/);
    expect((await http('GET', `${app.url}/api/v1/llm/default`)).json().model).toBe('gpt-4.1-mini');
  });

  it('replaces the section, returns the change, and audits it without a key', async () => {
    const before = audit.length;
    const res = await http('PUT', `${app.url}/api/v1/settings/llm`, {
      headers: { 'X-Roles': 'ops,admin' },
      body: { provider: 'ollama', model: 'qwen2.5-coder:3b' },
    });
    expect(res.status).toBe(200);
    const change = res.json();
    expect(change.by).toMatchObject({ via: 'api', roles: ['ops', 'admin'] });
    expect(change.changes.default).toEqual({ old: 'openai/gpt-4.1-mini', new: 'ollama/qwen2.5-coder:3b' });
    // An agent the new section no longer configures runs on the new default: its effective model changed.
    expect(change.changes.ast_planner).toEqual({ old: 'openai/gpt-4.1', new: 'ollama/qwen2.5-coder:3b' });
    expect((await http('GET', `${app.url}/api/v1/llm`)).json().llms).toEqual({
      default: expect.objectContaining({ provider: 'ollama', model: 'qwen2.5-coder:3b' }),
    });
    const record = audit.slice(before).find((e) => e.name === 'audit.llm.changed');
    expect(record?.data).toMatchObject({ via: 'api', roles: ['ops', 'admin'] });
    expect(JSON.stringify(audit)).not.toContain(KEY);
  });

  it('answers 422 when the body is not an object', async () => {
    const res = await http('PUT', `${app.url}/api/v1/settings/llm`, { headers: admin, body: ['provider'] });
    expect(res.status).toBe(422);
  });
});

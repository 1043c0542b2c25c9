/**
 * Issue 23 item 8: typos that change behaviour are refused where they are given. An unknown field
 * of a request body is a 422 naming it and the closest valid field (`excute: false` used to run
 * the SQL); an llm agent name outside the steps that call a model is refused with the closest step
 * (`ast_planer` used to be accepted and do nothing); a URL that is not one is refused naming its
 * key, instead of failing at the first call.
 */
import { OperatorEvents, type OperatorEvent } from '../../src/engine/events/operator-events';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';

let app: RunningApp;
let fake: FakeModelServer;
const audit: OperatorEvent[] = [];
const admin = { 'X-Roles': 'admin' };
const analyst = { 'X-Roles': 'analyst' };

beforeAll(async () => {
  fake = await FakeModelServer.start();
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    llm: {
      provider: 'openai_compatible',
      model: 'fake-model',
      base_url: fake.openaiBaseUrl,
      max_retries: 0,
    },
  });
  app.engine.get(OperatorEvents).subscribe((e) => audit.push(e));
});
afterAll(async () => {
  await app.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  audit.length = 0;
});

describe('unknown fields of a request body', () => {
  it('refuses `excute` on /query with the closest field, before any model call or SQL', async () => {
    const res = await http('POST', `${app.url}/api/v1/query`, {
      body: { natural_language: 'How many orders are there?', excute: false },
      headers: analyst,
    });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual({
      detail: "unknown field 'excute' (did you mean 'execute'?)",
      error_code: 'REQUEST_INVALID',
    });
    expect(fake.requests).toHaveLength(0);
    expect(audit.filter((e) => e.name.startsWith('run.'))).toEqual([]);
  });

  it('refuses it on /query/stream before any event', async () => {
    const res = await http('POST', `${app.url}/api/v1/query/stream`, {
      body: { natural_language: 'How many orders?', datasource: 'shop' },
      headers: analyst,
    });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().detail).toBe("unknown field 'datasource' (did you mean 'datasource_id'?)");
    expect(fake.requests).toHaveLength(0);
  });

  it('names every unknown field, and the valid ones when none is close', async () => {
    const res = await http('POST', `${app.url}/api/v1/query`, {
      body: { natural_language: 'x', excute: true, sql: 'DELETE FROM orders' },
      headers: analyst,
    });
    expect(res.status).toBe(422);
    expect(res.json().detail).toBe(
      "unknown field 'excute' (did you mean 'execute'?); unknown field 'sql' " +
        '(valid fields: natural_language, datasource_id, execute, user_context)',
    );
  });

  it('keeps user_context open (the spec makes it a free Dict)', async () => {
    fake.onRequest(() => ({ fail: 'server' }));
    const res = await http('POST', `${app.url}/api/v1/query`, {
      body: {
        natural_language: 'How many orders?',
        execute: false,
        user_context: { roles: ['analyst'], tenant: { region: 'eu', excute: 1 } },
      },
      headers: analyst,
    });
    expect(res.status).toBe(200);
  });

  it('refuses an unknown field of POST /datasource, whose config is checked as a datasource', async () => {
    const path = makeSqliteFixture();
    const typo = await http('POST', `${app.url}/api/v1/datasource`, {
      body: { conifg: { id: 'more', type: 'sqlite', connection: { path } } },
      headers: admin,
    });
    expect(typo.status).toBe(422);
    expect(typo.json().detail).toBe("unknown field 'conifg' (did you mean 'config'?)");
    const inner = await http('POST', `${app.url}/api/v1/datasource`, {
      body: { config: { id: 'more', type: 'sqlite', connection: { path }, descripton: 'x' } },
      headers: admin,
    });
    expect(inner.status).toBe(422);
    expect(inner.json().detail).toContain(
      "descripton: unknown key 'descripton' (did you mean 'description'?)",
    );
    expect((await http('GET', `${app.url}/api/v1/datasource/more`)).status).toBe(404);
  });
});

describe('llm agent names and URLs', () => {
  const section = { provider: 'openai_compatible', model: 'fake-model', base_url: 'http://127.0.0.1:9/v1' };

  it('refuses a misspelt agent on PUT /settings/llm with the closest step, and changes nothing', async () => {
    const before = (await http('GET', `${app.url}/api/v1/llm`)).json();
    const res = await http('PUT', `${app.url}/api/v1/settings/llm`, {
      body: { ...section, agents: { ast_planer: { model: 'bigger-model' } } },
      headers: admin,
    });
    expect(res.status).toBe(422);
    expect(res.json().error_code).toBe('CONFIG_INVALID');
    expect(res.json().detail).toContain(
      "llm.agents.ast_planer: unknown key 'ast_planer' (did you mean 'ast_planner'?)",
    );
    expect((await http('GET', `${app.url}/api/v1/llm`)).json()).toEqual(before);
  });

  it('accepts every step that calls a model as an agent', async () => {
    const agents = {
      datasource_resolver: { model: 'a' },
      decomposer: { model: 'b' },
      verified_resolver: { model: 'c' },
      ast_planner: { model: 'd' },
      answer_synthesizer: { model: 'e' },
    };
    const res = await http('PUT', `${app.url}/api/v1/settings/llm`, {
      body: { ...section, agents },
      headers: admin,
    });
    expect(res.status).toBe(200);
    expect(Object.keys((await http('GET', `${app.url}/api/v1/llm`)).json().llms)).toEqual([
      'default',
      ...Object.keys(agents),
    ]);
  });

  it('refuses a base_url that is not a URL, naming the key, at the top and in an agent', async () => {
    for (const [body, key] of [
      [{ ...section, base_url: 'not a url' }, 'llm.base_url'],
      [
        { ...section, agents: { decomposer: { base_url: 'localhost:11434/v1' } } },
        'llm.agents.decomposer.base_url',
      ],
    ] as const) {
      const res = await http('PUT', `${app.url}/api/v1/settings/llm`, { body, headers: admin });
      expect(res.status).toBe(422);
      expect(res.json().detail).toContain(`${key}: must be a URL starting with http:// or https://`);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a datasource URL of the wrong scheme or without its database, naming the key (422, not 500)', async () => {
    for (const [connection, type, message] of [
      [
        { url: 'not a url' },
        'postgres',
        'connection.url: must be a URL starting with postgres:// or postgresql://',
      ],
      [
        { url: 'postgres://app@db/shop' },
        'mysql',
        'connection.url: must be a URL starting with mysql:// or mariadb://',
      ],
      [
        { url: 'mysql://app:pw-in-url-123@127.0.0.1:3306' },
        'mysql',
        'connection.url: must name the database',
      ],
    ] as const) {
      const res = await http('POST', `${app.url}/api/v1/datasource`, {
        body: { config: { id: 'remote', type, connection } },
        headers: admin,
      });
      expect(res.status).toBe(422);
      expect(res.json().error_code).toBe('CONFIG_INVALID');
      expect(res.json().detail).toContain(message);
      expect(res.text).not.toContain('pw-in-url-123');
    }
  });
});

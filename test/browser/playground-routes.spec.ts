/**
 * The playground's HTTP side without a browser: the redirect, the page and its assets (and
 * nothing else from that folder), the message when the page is not built, the context route
 * agreeing with the admin guard, and the `via` header of PUT /api/v1/settings/llm.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperatorEvent } from '../../src/engine/events/operator-events';
import { buildWeb } from '../../src/web/build';
import { makeSqliteFixture, startApp, type RunningApp } from '../support/app';
import { http } from '../support/http';
import { OperatorEvents } from '../../src/engine/events/operator-events';

const LLM = { provider: 'openai_compatible', model: 'm1', base_url: 'http://127.0.0.1:9/v1' };
let web: string;
let app: RunningApp;
const audit: OperatorEvent<'audit.llm.changed'>[] = [];

beforeAll(async () => {
  web = join(tmpdir(), 'web-routes');
  await buildWeb(web);
  // A file beside the build that is not one of its assets' names must still not leak through the route.
  writeFileSync(join(tmpdir(), 'secret.txt'), 'not an asset');
  process.env.NL2SQL_WEB_DIR = web;
  app = await startApp({
    api: { role_header: 'X-Roles' },
    datasources: [
      {
        id: 'shop',
        type: 'sqlite',
        connection: { path: makeSqliteFixture() },
        sample_questions: ['How many orders are there?'],
      },
    ],
    llm: LLM,
  });
  app.engine.get(OperatorEvents).subscribe((e) => {
    if (e.name === 'audit.llm.changed') audit.push(e);
  });
});
afterAll(() => app.close());

describe('the page and its assets', () => {
  it('redirects / to /playground and serves the page, which loads only its own assets', async () => {
    const root = await http('GET', `${app.url}/`);
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe('/playground');
    const page = await http('GET', `${app.url}/playground`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.sort()).toEqual(
      ['/docs', '/playground/assets/main.css', '/playground/assets/main.js', '/redoc', 'data:,'].sort(),
    );
    const js = await http('GET', `${app.url}/playground/assets/main.js`);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    const css = await http('GET', `${app.url}/playground/assets/main.css`);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    // What the page then fetches while it runs is checked in the browser (playground.spec.ts).
  });

  it('answers 404 for a name that is not one of the built files, and never walks out of the folder', async () => {
    for (const name of ['nope.js', '..%2Fsecret.txt', '%2E%2E%2Fsecret.txt', '.', 'main.js%00.css']) {
      const res = await http('GET', `${app.url}/playground/assets/${name}`);
      expect({ name, status: res.status }).toEqual({ name, status: 404 });
      expect(res.json().error_code).toBe('NOT_FOUND');
      expect(res.text).not.toContain('not an asset');
    }
  });

  it('names the build command when the page is not built', async () => {
    const empty = join(tmpdir(), 'web-empty');
    mkdirSync(empty, { recursive: true });
    process.env.NL2SQL_WEB_DIR = empty;
    try {
      const res = await http('GET', `${app.url}/playground`);
      expect(res.status).toBe(404);
      expect(res.json().detail).toMatch(/not built.*npm run build/);
    } finally {
      process.env.NL2SQL_WEB_DIR = web;
    }
  });

  it('leaves the playground out of the OpenAPI document', async () => {
    const doc = (await http('GET', `${app.url}/openapi.json`)).json();
    expect(Object.keys(doc.paths).filter((p) => p === '/' || p.startsWith('/playground'))).toEqual([]);
  });
});

describe('GET /playground/context', () => {
  it('describes the role source and the sample questions, and agrees with the admin guard', async () => {
    for (const roles of [null, 'analyst', 'admin', 'analyst, admin', ' , ']) {
      const headers: Record<string, string> = roles === null ? {} : { 'X-Roles': roles };
      const ctx = (await http('GET', `${app.url}/playground/context`, { headers })).json();
      expect(ctx.role_source).toEqual({
        header: 'X-Roles',
        static_role: null,
        trust_body_role: false,
        configured: true,
      });
      expect(ctx.sample_questions).toEqual({ shop: ['How many orders are there?'] });
      // An invalid body is checked after the guard: 403/401 come from the guard, 422 means it let the caller in.
      const put = await http('PUT', `${app.url}/api/v1/settings/llm`, { headers, body: { provider: 1 } });
      expect({ roles, may_admin: ctx.caller.may_admin }).toEqual({ roles, may_admin: put.status === 422 });
      const query = await http('POST', `${app.url}/api/v1/query`, {
        headers,
        body: { natural_language: '' },
      });
      expect({ roles, may_query: ctx.caller.may_query }).toEqual({ roles, may_query: query.status !== 401 });
    }
  });

  it('with no role source, admits loopback callers as the guard does', async () => {
    const open = await startApp({
      datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
    });
    try {
      const ctx = (await http('GET', `${open.url}/playground/context`)).json();
      expect(ctx.role_source.configured).toBe(false);
      expect(ctx.caller).toEqual({ roles: null, may_query: false, may_admin: true });
      const put = await http('PUT', `${open.url}/api/v1/settings/llm`, { body: { provider: 1 } });
      expect(put.status).toBe(422);
    } finally {
      await open.close();
    }
  });
});

describe('PUT /api/v1/settings/llm with X-NL2SQL-Via', () => {
  it("records the change as via 'playground' in the answer and the audit, and 'api' without the header", async () => {
    const admin = { 'X-Roles': 'admin' };
    const viaPage = await http('PUT', `${app.url}/api/v1/settings/llm`, {
      headers: { ...admin, 'X-NL2SQL-Via': 'playground' },
      body: { ...LLM, model: 'm2' },
    });
    expect(viaPage.status).toBe(200);
    expect(viaPage.json().by).toEqual({ via: 'playground', user_id: null, roles: ['admin'] });
    const viaApi = await http('PUT', `${app.url}/api/v1/settings/llm`, { headers: admin, body: LLM });
    expect(viaApi.json().by.via).toBe('api');
    expect(audit.map((e) => e.data.via)).toEqual(['playground', 'api']);
  });

  it('refuses any other value with 422, changing nothing', async () => {
    const res = await http('PUT', `${app.url}/api/v1/settings/llm`, {
      headers: { 'X-Roles': 'admin', 'X-NL2SQL-Via': 'python' },
      body: { ...LLM, model: 'm3' },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual({
      detail: "X-NL2SQL-Via must be 'playground' when it is sent",
      error_code: 'REQUEST_INVALID',
    });
    expect((await http('GET', `${app.url}/api/v1/llm/default`)).json().model).toBe('m1');
  });
});

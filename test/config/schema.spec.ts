/**
 * The configuration schema as the one source of checks, types and defaults (issue 24 item 6): a
 * datasource is a union keyed on `type`, so its connection's keys are checked once, per type, with
 * one closest-key hint; defaults are the schema's and fill a complete configuration.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkConfigCommand } from '../../src/cli/commands/check-config';
import { ConfigError } from '../../src/config/config-error';
import { parseConfig } from '../../src/config/loader';
import { DatasourceConfigSchema } from '../../src/config/schema';
import { validateStrict } from '../../src/config/strict-validate';

function problemsOf(raw: unknown) {
  try {
    parseConfig(raw);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('datasources: a union keyed on type', () => {
  it("names a key of another type as that, with the type's own keys", () => {
    expect(
      problemsOf({ datasources: [{ id: 's', type: 'sqlite', connection: { path: 'x.db', host: 'db' } }] }),
    ).toEqual([
      {
        path: 'datasources[0].connection.host',
        message: "'host' is not a key of a sqlite datasource (its keys: path, pool_max)",
      },
    ]);
  });

  it("proposes the closest key among the type's own keys only", () => {
    // `pat` is nearest to `path`, and `prot` to `port` only for a server type.
    expect(
      problemsOf({ datasources: [{ id: 'd', type: 'duckdb', connection: { pat: 'x.duckdb' } }] }),
    ).toEqual([
      { path: 'datasources[0].connection.pat', message: "unknown key 'pat' (did you mean 'path'?)" },
    ]);
    expect(
      problemsOf({
        datasources: [{ id: 'p', type: 'postgres', connection: { host: 'db', database: 'x', prot: 1 } }],
      }),
    ).toEqual([
      { path: 'datasources[0].connection.prot', message: "unknown key 'prot' (did you mean 'port'?)" },
    ]);
  });

  it('reports one problem per wrong key, not one per branch of the union', () => {
    const problems = validateStrict(DatasourceConfigSchema, {
      id: 'm',
      type: 'mysql',
      connection: { host: 'db', database: 'x', port: 'x', descripton: 'y' },
    });
    expect(problems).toEqual([
      {
        path: 'connection.descripton',
        message:
          "unknown key 'descripton' (valid keys: url, host, port, user, password, database, ssl, pool_max)",
      },
      { path: 'connection.port', message: 'must be integer' },
    ]);
  });

  it('says a missing or unknown type once, naming the valid ones', () => {
    expect(problemsOf({ datasources: [{ id: 'x', connection: {} }] })).toEqual([
      { path: 'datasources[0].type', message: "missing required key 'type'" },
    ]);
    expect(problemsOf({ datasources: [{ id: 'x', type: 'oracle', connection: { sid: 1 } }] })).toEqual([
      { path: 'datasources[0].type', message: 'must be one of "duckdb", "sqlite", "postgres", "mysql"' },
    ]);
  });

  it('checks secret references against the branch the type names', () => {
    // password is a secret field of postgres; host never is, whatever another branch says.
    expect(() =>
      parseConfig({
        datasources: [
          { id: 'p', type: 'postgres', connection: { host: 'db', database: 'x', password: '${env:PW}' } },
        ],
      }),
    ).not.toThrow();
    expect(
      problemsOf({ datasources: [{ id: 'p', type: 'postgres', connection: { host: '${env:HOST}' } }] }),
    ).toEqual([
      {
        path: 'datasources[0].connection.host',
        message: expect.stringContaining('only allowed in a secret field') as string,
      },
    ]);
  });

  it('words ranges and booleans as a person writing YAML reads them', () => {
    expect(
      problemsOf({
        datasources: [
          { id: 'p', type: 'postgres', connection: { host: 'db', port: 70000, ssl: 'yes', pool_max: 0 } },
        ],
      }),
    ).toEqual([
      { path: 'datasources[0].connection.port', message: 'must be an integer from 1 to 65535' },
      { path: 'datasources[0].connection.ssl', message: 'must be true or false' },
      { path: 'datasources[0].connection.pool_max', message: 'must be an integer from 1 to 100' },
    ]);
  });

  it('proposes the closest top-level key', () => {
    expect(problemsOf({ datasourcs: [] })).toEqual([
      { path: 'datasourcs', message: "unknown key 'datasourcs' (did you mean 'datasources'?)" },
    ]);
  });
});

describe('defaults: from the schema', () => {
  it('fills a complete configuration from an empty file', () => {
    expect(parseConfig({}, 'c', { baseDir: '/srv/app' })).toEqual({
      tenant_id: 'default',
      api: { trust_body_role: false, cors_origins: [] },
      policies: { admin_roles: ['admin'], roles: null },
      datasources: [],
      verified_queries: [],
      llm: null,
      embeddings: { provider: 'local' },
      storage: {
        results: { path: '/srv/app/data/results', max_age_days: 30 },
        traces: { path: '/srv/app/data/traces', max_age_days: 30 },
        knowledge: { path: '/srv/app/data/knowledge' },
        index: { path: '/srv/app/data/index', namespace: 'default', build_on_start: false },
      },
      settings: {
        pipeline: {
          max_cost_usd: null,
          max_model_calls: 20,
          max_retries: 2,
          sample_rows: 20,
          max_sub_queries: 4,
          plan_cache_size: 1000,
          decompose: 'auto',
          verified_direct_threshold: 0.9,
        },
      },
      hooks: [],
      secrets: { runtime_allowed: [] },
      base_dir: '/srv/app',
    });
  });

  it('keeps what the file sets, null where null is allowed, and leaves the file untouched', () => {
    const raw = {
      api: { role: 'analyst' },
      storage: { results: { max_age_days: 7 } },
      settings: { pipeline: { verified_direct_threshold: null, max_retries: 0 } },
      hooks: [{ module: 'hooks/audit.js' }],
    };
    const before = structuredClone(raw);
    const cfg = parseConfig(raw, 'c', { baseDir: '/srv/app' });
    expect(cfg.api).toEqual({ role: 'analyst', trust_body_role: false, cors_origins: [] });
    expect(cfg.storage.results).toEqual({ path: '/srv/app/data/results', max_age_days: 7 });
    expect(cfg.settings.pipeline.verified_direct_threshold).toBeNull();
    expect(cfg.settings.pipeline.max_retries).toBe(0);
    expect(cfg.hooks).toEqual([{ module: '/srv/app/hooks/audit.js' }]);
    expect(raw).toEqual(before);
  });

  it('adds no key to a datasource or an llm section', () => {
    const ds = { id: 'f', type: 'sqlite', connection: { path: '/data/x.sqlite' } };
    const llm = { provider: 'openai', model: 'gpt-4.1-mini' };
    const cfg = parseConfig({ datasources: [ds], llm });
    expect(cfg.datasources).toEqual([ds]);
    expect(cfg.llm).toEqual(llm);
  });
});

describe('typos caught where they are given (issue 23 item 8)', () => {
  it('takes only the steps that call a model as llm agents, proposing the closest', () => {
    expect(
      problemsOf({ llm: { provider: 'openai', model: 'm', agents: { ast_planer: { model: 'x' } } } }),
    ).toEqual([
      {
        path: 'llm.agents.ast_planer',
        message: "unknown key 'ast_planer' (did you mean 'ast_planner'?)",
      },
    ]);
    expect(
      problemsOf({ llm: { provider: 'openai', model: 'm', agents: { summariser: {} } } })[0]?.message,
    ).toBe(
      "unknown key 'summariser' (valid keys: datasource_resolver, decomposer, ast_planner, verified_resolver, answer_synthesizer)",
    );
  });

  it('checks every URL key, naming it, and never quotes the value', () => {
    expect(
      problemsOf({
        api: { cors_origins: ['https://app.example.com/', 'app.example.com', 'http://localhost:5173'] },
        llm: { provider: 'openai', model: 'm', base_url: 'not a url' },
        embeddings: { provider: 'openai', base_url: 'ftp://files.example.com' },
        datasources: [{ id: 'p', type: 'postgres', connection: { url: 'mysql://u:s3cret-pw@db/x' } }],
      }),
    ).toEqual([
      {
        path: 'api.cors_origins[0]',
        message:
          'must be an origin (scheme, host and port if not the default; no path, not even a trailing /), e.g. https://app.example.com',
      },
      {
        path: 'api.cors_origins[1]',
        message: 'must be a URL starting with http:// or https://, e.g. https://app.example.com',
      },
      {
        path: 'datasources[0].connection.url',
        message:
          'must be a URL starting with postgres:// or postgresql://, e.g. postgres://app@db.example.com:5432/shop',
      },
      {
        path: 'llm.base_url',
        message: 'must be a URL starting with http:// or https://, e.g. http://127.0.0.1:11434/v1',
      },
      {
        path: 'embeddings.base_url',
        message: 'must be a URL starting with http:// or https://, e.g. http://127.0.0.1:11434/v1',
      },
    ]);
  });

  it('accepts a secret reference inside a connection URL', () => {
    expect(() =>
      parseConfig({
        datasources: [
          { id: 'p', type: 'postgres', connection: { url: 'postgres://app:${env:PG_PW}@db:5432/shop' } },
        ],
      }),
    ).not.toThrow();
  });

  it('makes check-config fail on them as start-up does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nl2sql-typo-'));
    const file = join(dir, 'nl2sql.yaml');
    writeFileSync(file, 'llm: { provider: openai, model: m, agents: { ast_planer: { model: x } } }\n');
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => err.push(t), env: {} };
    const options = { env: {}, roles: null, datasource: null, json: false, all: false };
    expect(await checkConfigCommand([file], options as never, io)).toBe(1);
    expect(err.join('\n')).toContain(
      "llm.agents.ast_planer: unknown key 'ast_planer' (did you mean 'ast_planner'?)",
    );
  });
});

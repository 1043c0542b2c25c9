import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error';
import { CONFIG_ENV, EMBEDDED_DEFAULT_PATH, loadConfig, parseConfig } from '../../src/config/loader';

function problemsOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

const pg = (extra: Record<string, unknown> = {}) => ({
  id: 'shop',
  type: 'postgres',
  connection: { host: '127.0.0.1', database: 'shop', password: '${env:SHOP_PW}' },
  ...extra,
});

describe('config: strict keys', () => {
  it('rejects an unknown key and proposes the closest valid key with its path', () => {
    const err = problemsOf(() => parseConfig({ datasources: [pg({ descripton: 'x' })] }));
    expect(err.problems).toEqual([
      {
        path: 'datasources[0].descripton',
        message: "unknown key 'descripton' (did you mean 'description'?)",
      },
    ]);
    expect(err.message).toMatch(/^1 problem in config:/);
  });

  it('proposes nested keys too (api.role_headr -> role_header)', () => {
    const err = problemsOf(() => parseConfig({ api: { role_headr: 'X-Roles' } }));
    expect(err.problems[0]?.message).toContain("did you mean 'role_header'");
    expect(err.problems[0]?.path).toBe('api.role_headr');
  });

  it('counts every problem and names the path to each', () => {
    const err = problemsOf(() =>
      parseConfig({
        tenant_idd: 'x',
        datasources: [{ type: 'postgres', connection: {} }],
        storage: { results: { max_age_days: 'old' } },
      }),
    );
    const paths = err.problems.map((p) => p.path).sort();
    expect(paths).toEqual(['datasources[0].id', 'storage.results.max_age_days', 'tenant_idd']);
    expect(err.message).toMatch(/^3 problems in config:/);
    expect(err.problems.find((p) => p.path === 'datasources[0].id')?.message).toBe(
      "missing required key 'id'",
    );
  });

  it('names the allowed values of an enum', () => {
    const err = problemsOf(() => parseConfig({ datasources: [{ ...pg(), type: 'oracle' }] }));
    expect(err.problems[0]).toEqual({
      path: 'datasources[0].type',
      message: 'must be one of "duckdb", "sqlite", "postgres", "mysql"',
    });
  });
});

describe('config: secret references', () => {
  it('accepts a reference in a secret field', () => {
    const cfg = parseConfig({ datasources: [pg()] });
    expect(cfg.datasources[0]?.connection.password).toBe('${env:SHOP_PW}');
  });

  it('refuses a reference outside a secret field and names the field', () => {
    const err = problemsOf(() => parseConfig({ datasources: [pg({ description: 'db ${env:HOME}' })] }));
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]?.path).toBe('datasources[0].description');
    expect(err.problems[0]?.message).toMatch(/only allowed in a secret field/);
  });

  it('accepts references in llm api_key and header values only', () => {
    expect(() =>
      parseConfig({
        llm: { provider: 'openai', model: 'm', api_key: '${env:K}', headers: { 'X-T': '${file:/k}' } },
      }),
    ).not.toThrow();
    const err = problemsOf(() => parseConfig({ llm: { provider: 'openai', model: '${env:MODEL}' } }));
    expect(err.problems[0]?.path).toBe('llm.model');
  });
});

describe('config: cross checks and defaults', () => {
  it('rejects duplicate datasource ids and verified queries on unknown datasources', () => {
    const err = problemsOf(() =>
      parseConfig({
        datasources: [pg(), pg()],
        verified_queries: [{ id: 'q', datasource_id: 'nope', question: 'q?', sql: 'SELECT 1' }],
      }),
    );
    expect(err.problems.map((p) => p.path)).toEqual([
      'datasources[1].id',
      'verified_queries[0].datasource_id',
    ]);
  });

  it('fills defaults and resolves relative paths against the config folder', () => {
    const cfg = parseConfig(
      { datasources: [{ id: 'f', type: 'sqlite', connection: { path: 'db/x.sqlite' } }] },
      'c',
      {
        baseDir: '/srv/app',
      },
    );
    expect(cfg.tenant_id).toBe('default');
    expect(cfg.policies.admin_roles).toEqual(['admin']);
    expect(cfg.api.cors_origins).toEqual([]);
    expect(cfg.storage.results).toEqual({ path: '/srv/app/data/results', max_age_days: 30 });
    expect(cfg.datasources[0]?.connection.path).toBe('/srv/app/db/x.sqlite');
  });
});

describe('config: locating the file, .env and llm.yaml', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'nl2sql-cfg-'));

  it('uses NL2SQL_CONFIG, loads .env beside it without overriding a set variable', () => {
    const d = dir();
    writeFileSync(join(d, 'conf.yaml'), 'tenant_id: acme\n');
    writeFileSync(join(d, '.env'), 'NEW_VAR=from-file\nSET_VAR=from-file\n');
    const env: NodeJS.ProcessEnv = { [CONFIG_ENV]: join(d, 'conf.yaml'), SET_VAR: 'already' };
    const loaded = loadConfig(env, '/');
    expect(loaded.config.tenant_id).toBe('acme');
    expect(env.NEW_VAR).toBe('from-file');
    expect(env.SET_VAR).toBe('already');
    expect(loaded.envFileVariables).toEqual(['NEW_VAR']);
  });

  it('falls back to ./nl2sql.yaml, then to the embedded default', () => {
    const d = dir();
    expect(loadConfig({}, d).path).toBe(EMBEDDED_DEFAULT_PATH);
    writeFileSync(join(d, 'nl2sql.yaml'), 'tenant_id: local\n');
    expect(loadConfig({}, d).config.tenant_id).toBe('local');
  });

  it('reads the llm section from llm.yaml beside the config, and refuses it in both places', () => {
    const d = dir();
    writeFileSync(join(d, 'nl2sql.yaml'), 'tenant_id: t\n');
    writeFileSync(join(d, 'llm.yaml'), 'provider: openai\nmodel: gpt-4.1-mini\n');
    expect(loadConfig({}, d).config.llm).toEqual({ provider: 'openai', model: 'gpt-4.1-mini' });
    writeFileSync(join(d, 'nl2sql.yaml'), 'llm: {provider: openai, model: x}\n');
    expect(() => loadConfig({}, d)).toThrow(/both inline and in/);
  });

  it('reports a missing NL2SQL_CONFIG file and YAML syntax errors with a line', () => {
    expect(() => loadConfig({ [CONFIG_ENV]: '/nonexistent/x.yaml' }, '/')).toThrow(/does not exist/);
    const d = dir();
    writeFileSync(join(d, 'nl2sql.yaml'), 'tenant_id: [unclosed\n');
    expect(() => loadConfig({}, d)).toThrow(/line \d+/);
  });
});

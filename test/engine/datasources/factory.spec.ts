/**
 * The factory checks connection keys per type without opening anything; secrets are resolved only
 * at connect; listings mask every secret; no error message carries a password.
 */
import { SecretManager } from '../../../src/config/secrets';
import type { DatasourceConfig } from '../../../src/config/schema';
import { createAdapter, maskConnection } from '../../../src/engine/datasources/factory';
import { rejectionOf } from '../../support/datasources/adapter-contract';
import { MARIADB, PG } from '../../support/datasources/fixtures';

const secrets = new SecretManager({ NL2SQL_TEST_DS_PASSWORD: 'pw-from-env-123' });
const build = (config: unknown) => createAdapter(config as DatasourceConfig, { secrets });
const configError = (config: unknown): { code: string; message: string } => {
  try {
    build(config);
  } catch (e) {
    return { code: String((e as { code?: unknown }).code), message: (e as Error).message };
  }
  throw new Error('expected a config error');
};

describe('createAdapter: connection keys per type', () => {
  it('requires path for duckdb and sqlite', () => {
    for (const type of ['duckdb', 'sqlite']) {
      const e = configError({ id: 'f', type, connection: {} });
      expect(e.code).toBe('DATASOURCE_CONFIG_INVALID');
      expect(e.message).toContain('connection.path');
      expect(e.message).toContain(`required for a ${type} datasource`);
    }
  });

  it('names a key that belongs to another type', () => {
    const e = configError({ id: 'f', type: 'sqlite', connection: { path: '/tmp/x.sqlite', host: 'db' } });
    expect(e.message).toContain('connection.host');
    expect(e.message).toContain("'host' is not a key of a sqlite datasource");
  });

  it('proposes the closest key for a misspelt one', () => {
    const e = configError({ id: 'f', type: 'postgres', connection: { hots: 'db', database: 'shop' } });
    expect(e.message).toContain("unknown key 'hots' (did you mean 'host'?)");
    expect(e.message).toMatch(/2 problems/); // and host itself is then missing
  });

  it('wants url, or host and database, for postgres and mysql', () => {
    const e = configError({ id: 'f', type: 'mysql', connection: { user: 'app' } });
    expect(e.message).toContain('connection.host');
    expect(e.message).toContain('connection.database');
    const both = configError({
      id: 'f',
      type: 'postgres',
      connection: { url: 'postgres://db/shop', host: 'db' },
    });
    expect(both.message).toContain("give either 'url' or 'host'");
    const noDb = configError({ id: 'f', type: 'mysql', connection: { url: 'mysql://app@db:3306' } });
    expect(noDb.message).toContain('must name the database');
    const scheme = configError({
      id: 'f',
      type: 'postgres',
      connection: { url: 'mysql://app:hunter22@db/shop' },
    });
    expect(scheme.message).toContain('postgres://');
    expect(scheme.message).not.toContain('hunter22');
  });

  it('checks value types and the datasource type', () => {
    const e = configError({
      id: 'f',
      type: 'postgres',
      connection: { host: 'db', database: 's', port: 70000, ssl: 'yes' },
    });
    expect(e.message).toContain('connection.port: must be an integer from 1 to 65535');
    expect(e.message).toContain('connection.ssl: must be true or false');
    expect(configError({ id: 'f', type: 'oracle', connection: {} }).message).toContain(
      "unknown datasource type 'oracle'",
    );
  });

  it('builds without connecting: a server that is not there fails only at connect, naming the datasource', async () => {
    const adapter = build({
      id: 'nowhere',
      type: 'postgres',
      connection: { url: 'postgres://app:hunter22@127.0.0.1:1/shop' },
    });
    const e = await rejectionOf(adapter.connect());
    expect(e.code).toBe('DATASOURCE_UNAVAILABLE');
    expect(e.message).toContain("datasource 'nowhere'");
    expect(e.message).not.toContain('hunter22');
    await adapter.close();

    const missing = build({
      id: 'nofile',
      type: 'duckdb',
      connection: { path: '/tmp/nl2sql-no-such-dir/x.duckdb' },
    });
    const m = await rejectionOf(missing.healthCheck());
    expect(m.code).toBe('DATASOURCE_UNAVAILABLE');
    expect(m.message).toContain('does not exist');
  });
});

describe('secrets in connections', () => {
  it('reports an unresolvable reference at connect as a config error naming the variable', async () => {
    const adapter = build({
      id: 'pg_ref',
      type: 'postgres',
      connection: { ...PG, database: 'postgres', password: '${env:NL2SQL_TEST_UNSET_VAR}' },
    });
    const e = await rejectionOf(adapter.connect());
    expect(e.code).toBe('DATASOURCE_CONFIG_INVALID');
    expect(e.message).toContain('NL2SQL_TEST_UNSET_VAR');
  });

  it('connects to postgres through a url whose password is an env reference', async () => {
    const adapter = build({
      id: 'pg_url',
      type: 'postgres',
      connection: {
        url: 'postgres://postgres:${env:NL2SQL_TEST_DS_PASSWORD}@127.0.0.1:5432/postgres',
        pool_max: 2,
      },
    });
    try {
      await adapter.healthCheck();
      const failure = await rejectionOf(adapter.execute('SELECT * FROM no_such_table'));
      expect(failure.code).toBe('DATASOURCE_QUERY_FAILED');
      expect(failure.message).not.toContain('pw-from-env-123');
    } finally {
      await adapter.close();
    }
  });

  it('connects to mariadb through a url', async () => {
    const adapter = build({
      id: 'my_url',
      type: 'mysql',
      connection: { url: `mysql://${MARIADB.user}@127.0.0.1:3306/mysql` },
    });
    try {
      await adapter.healthCheck();
      expect((await adapter.execute('SELECT 1 + ? AS two', [1])).rows).toEqual([[2]]);
    } finally {
      await adapter.close();
    }
  });
});

describe('maskConnection', () => {
  it('masks every secret field and the password inside a url, and nothing else', () => {
    expect(
      maskConnection({ host: 'db', user: 'app', password: 's3cret', database: 'shop', port: 5432 }),
    ).toEqual({
      host: 'db',
      user: 'app',
      password: '***',
      database: 'shop',
      port: 5432,
    });
    expect(maskConnection({ password: '${env:PG_PASSWORD}' })).toEqual({ password: '***' });
    expect(maskConnection({ url: 'postgres://app:p@ss:word@db:5432/shop?sslmode=require' })).toEqual({
      url: 'postgres://app:***@db:5432/shop?sslmode=require',
    });
    expect(maskConnection({ url: 'mysql://db/shop?user=app&password=x1' })).toEqual({
      url: 'mysql://db/shop?user=app&password=***',
    });
    expect(maskConnection({ url: 'postgres://app@db/shop' })).toEqual({ url: 'postgres://app@db/shop' });
    expect(maskConnection({ path: '/data/shop.duckdb', demo: true })).toEqual({
      path: '/data/shop.duckdb',
      demo: true,
    });
  });
});

/**
 * Row filters and masks in the configuration (issue 28): anything that would make a policy
 * silently not apply is a config error naming its key — when the config is read (shape,
 * datasource, filter syntax, undeclared attribute) and at start-up against the datasource's
 * schema (table, column, a filter's unknown column).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error';
import { parseConfig } from '../../src/config/loader';
import { createEngine } from '../../src/create-engine';
import { makeSqliteFixture } from '../support/app';

const DATASOURCES = [{ id: 'shop', type: 'sqlite', connection: { path: '/nowhere/shop.sqlite' } }];

function problemsOf(policies: Record<string, unknown>, api: Record<string, unknown> = {}): string[] {
  try {
    parseConfig({ datasources: DATASOURCES, api, policies: { roles: policies } });
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems.map((p) => `${p.path}: ${p.message}`);
  }
}

describe('row policies when the config is read', () => {
  it('accepts filters over declared attributes and masks of configured datasources', () => {
    expect(
      problemsOf(
        {
          rep: {
            rows: { 'shop.orders': "region = :user.region AND status <> 'void'" },
            columns: { mask: ['shop.customers.phone'], mask_keep: 4, mask_with: '#' },
            model_sees: 'aggregates',
          },
        },
        { attribute_header: 'X-User-Attributes', attributes: ['region'] },
      ),
    ).toEqual([]);
  });

  it.each([
    [
      'an undeclared attribute, with the closest declared one',
      { rep: { rows: { 'shop.orders': 'region = :user.regoin' } } },
      { attributes: ['region'] },
      "policies.roles.rep.rows.shop.orders: unknown attribute :user.regoin; did you mean 'region'?; declare it in api.attributes (declared: region)",
    ],
    [
      'an unknown datasource',
      { rep: { rows: { 'shpo.orders': "region = 'EU'" } } },
      {},
      "policies.roles.rep.rows.shpo.orders: unknown datasource 'shpo'; did you mean 'shop'? (configured: shop); a rule for no datasource would never apply",
    ],
    [
      'a key that is not <datasource>.<table>',
      { rep: { rows: { orders: "region = 'EU'" } } },
      {},
      'policies.roles.rep.rows.orders: a row filter is keyed <datasource>.<table>, e.g. shop.orders',
    ],
    [
      'a filter that brings a clause of its own',
      { rep: { rows: { 'shop.orders': "region = 'EU' OR 1=1 GROUP BY region" } } },
      {},
      'policies.roles.rep.rows.shop.orders: not a row filter: it must be one boolean expression, with no clause of its own (GROUP BY, ORDER BY, LIMIT, UNION...)',
    ],
    [
      'a mask that is not <datasource>.<table>.<column>',
      { rep: { columns: { mask: ['shop.phone'] } } },
      {},
      'policies.roles.rep.columns.mask[0]: a mask names <datasource>.<table>.<column>, e.g. shop.customers.phone',
    ],
    [
      'an attribute header with no attribute declared',
      {},
      { attribute_header: 'X-User-Attributes' },
      'api.attributes: api.attribute_header is set but no attribute is declared; list the names the proxy sends',
    ],
  ])('names %s', (_, policies, api, problem) => {
    expect(problemsOf(policies, api)).toEqual([problem]);
  });
});

describe('row policies at start-up, against the schema', () => {
  const start = (roles: Record<string, unknown>) => {
    const dir = mkdtempSync(join(tmpdir(), 'nl2sql-policy-config-'));
    return createEngine({
      datasources: [{ id: 'shop', type: 'sqlite', connection: { path: makeSqliteFixture() } }],
      api: { attributes: ['country'] },
      policies: { roles },
      storage: {
        results: { path: join(dir, 'results') },
        traces: { path: join(dir, 'traces') },
        index: { path: join(dir, 'index') },
      },
    });
  };

  it('names a filter column the table does not have, and a masked column or table that does not exist', async () => {
    const err = await start({
      rep: {
        rows: { 'shop.customers': 'regoin = :user.country' },
        columns: { mask: ['shop.customers.phone', 'shop.custmers.name'] },
      },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
    expect(problems).toEqual([
      expect.stringMatching(
        /^policies\.roles\.rep\.rows\.shop\.customers: Column "regoin" does not exist .*Available: id, name, country/,
      ),
      "policies.roles.rep.columns.mask[0]: table 'customers' has no column 'phone' (columns: id, name, country)",
      "policies.roles.rep.columns.mask[1]: datasource 'shop' has no table 'custmers'; did you mean 'customers'?",
    ]);
  });

  it('starts with filters and masks that match the schema', async () => {
    const engine = await start({
      rep: {
        rows: { 'shop.customers': 'country = :user.country' },
        columns: { mask: ['shop.customers.name'] },
      },
    });
    await engine.close();
  });
});

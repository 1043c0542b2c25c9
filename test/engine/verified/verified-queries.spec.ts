/**
 * The verified-query catalog: configured and runtime queries checked the same way, a status per
 * query that a schema change can flip, and only enabled queries served.
 */
import type { SchemaSnapshot } from '../../../src/engine/datasources/schema';
import { EngineError } from '../../../src/engine/errors';
import { VerifiedQueries, VerifiedQueryInvalidError } from '../../../src/engine/verified/verified-queries';
import { SHOP } from '../../support/plan-fixtures';

const byCountry = {
  id: 'orders_in_country',
  datasource_id: 'shop',
  question: 'How many orders came from :country?',
  sql: 'SELECT count(*) AS n FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.country = :country',
  params: { country: { type: 'string' as const, description: 'Country', example: 'FR' } },
};
const amounts = {
  id: 'big_orders',
  datasource_id: 'shop',
  question: 'Which orders are above 10?',
  sql: 'SELECT id, amount FROM orders WHERE amount > 10',
};
const who = { created_at: '2026-01-01T00:00:00.000Z', roles: ['admin'], user_id: null };

/** SHOP without orders.amount, as after `ALTER TABLE orders DROP COLUMN amount`. */
const withoutAmount: SchemaSnapshot = {
  ...SHOP,
  schemaVersion: 'no-amount',
  tables: SHOP.tables.map((t) =>
    t.name === 'orders' ? { ...t, columns: t.columns.filter((c) => c.name !== 'amount') } : t,
  ),
};

it('checks configured queries at start-up and serves the ones that pass', () => {
  const catalog = new VerifiedQueries([byCountry, amounts]);
  expect(catalog.all()).toEqual([]);
  expect(catalog.check('shop', SHOP)).toEqual([]);
  expect(catalog.all().map((v) => v.id)).toEqual(['orders_in_country', 'big_orders']);
  expect(catalog.list().map((e) => [e.definition.id, e.origin, e.status])).toEqual([
    ['orders_in_country', 'config', 'enabled'],
    ['big_orders', 'config', 'enabled'],
  ]);
});

it('names the problems of a configured query by its path in the config', () => {
  const bad = { ...amounts, sql: 'SELECT id, total FROM orders WHERE amount > :floor' };
  const problems = new VerifiedQueries([byCountry, bad]).check('shop', SHOP);
  expect(problems.map((p) => p.path)).toEqual(['verified_queries[1].sql', 'verified_queries[1].params']);
  expect(problems[0]!.message).toMatch(/total.*UNKNOWN_COLUMN/);
});

it('refuses an example value that does not fit its parameter type', () => {
  const bad = { ...byCountry, params: { country: { type: 'integer' as const, example: 'FR' } } };
  const problems = new VerifiedQueries([bad]).check('shop', SHOP);
  expect(problems).toEqual([
    { path: 'verified_queries[0].params.country.example', message: 'must be of type integer, got "FR"' },
  ]);
});

it('disables a query a schema change breaks, with the reason, and enables it when it passes again', () => {
  const catalog = new VerifiedQueries([byCountry, amounts]);
  catalog.check('shop', SHOP);
  const off = catalog.recheck('shop', withoutAmount);
  expect(off).toEqual([
    {
      id: 'big_orders',
      datasource_id: 'shop',
      origin: 'config',
      previous: 'enabled',
      status: 'disabled',
      reason: expect.stringMatching(/^sql: .*amount.*\(UNKNOWN_COLUMN\)$/),
    },
  ]);
  expect(catalog.get('big_orders')).toBeUndefined();
  expect(catalog.all().map((v) => v.id)).toEqual(['orders_in_country']);
  expect(catalog.candidate('Which orders are above 10?', ['shop'])).toBeNull();
  // The same schema version again changes nothing (no re-check).
  expect(catalog.recheck('shop', withoutAmount)).toEqual([]);
  const on = catalog.recheck('shop', SHOP);
  expect(on).toEqual([
    expect.objectContaining({ id: 'big_orders', previous: 'disabled', status: 'enabled' }),
  ]);
  expect(catalog.entry('big_orders')).toMatchObject({ status: 'enabled', reason: null });
  expect(catalog.get('big_orders')?.plan).toBeDefined();
});

it('adds a runtime query checked like a configured one, and refuses a taken id or a failing check', () => {
  const catalog = new VerifiedQueries([byCountry]);
  catalog.check('shop', SHOP);
  const entry = catalog.addRuntime(amounts, SHOP, who);
  expect(entry).toMatchObject({ origin: 'runtime', status: 'enabled', provenance: who });
  expect(catalog.get('big_orders')).toBeDefined();
  expect(() => catalog.addRuntime({ ...amounts }, SHOP, who)).toThrow(
    expect.objectContaining({ code: 'VERIFIED_QUERY_EXISTS' }),
  );
  let thrown: unknown;
  try {
    catalog.addRuntime({ ...amounts, id: 'broken', sql: 'SELECT nope FROM orders' }, SHOP, who);
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(VerifiedQueryInvalidError);
  expect((thrown as VerifiedQueryInvalidError).problems[0]).toMatchObject({ path: 'verified_query.sql' });
  expect(catalog.entry('broken')).toBeUndefined();
});

it('removes runtime queries only: configured ones are read-only', () => {
  const catalog = new VerifiedQueries([byCountry]);
  catalog.check('shop', SHOP);
  catalog.addRuntime(amounts, SHOP, who);
  expect(() => catalog.removeRuntime('orders_in_country')).toThrow(
    expect.objectContaining({ code: 'VERIFIED_QUERY_READ_ONLY' }),
  );
  expect(() => catalog.removeRuntime('nope')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  catalog.removeRuntime('big_orders');
  expect(catalog.get('big_orders')).toBeUndefined();
  expect(catalog.get('orders_in_country')).toBeDefined();
});

it('restores stored runtime queries unchecked until their datasource has a schema; a configured id wins', () => {
  const catalog = new VerifiedQueries([byCountry]);
  expect(catalog.restore(amounts, who)).toBe(true);
  expect(catalog.restore({ ...amounts, id: 'orders_in_country' }, who)).toBe(false);
  expect(catalog.entry('big_orders')?.status).toBe('unchecked');
  expect(catalog.get('big_orders')).toBeUndefined();
  // Start-up problems are the configured ones' only: a runtime query that fails is disabled instead.
  expect(catalog.check('shop', withoutAmount)).toEqual([]);
  expect(catalog.entry('big_orders')).toMatchObject({ status: 'disabled', origin: 'runtime' });
});

it('is an EngineError with the problems in its details', () => {
  const err = new VerifiedQueryInvalidError('x', [{ path: 'sql', message: 'bad' }]);
  expect(err).toBeInstanceOf(EngineError);
  expect(err.code).toBe('VERIFIED_QUERY_INVALID');
  expect(err.message).toBe("verified query 'x' does not pass its check: sql: bad");
});

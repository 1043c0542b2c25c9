import { validatePlan, REFUSAL_CODES } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import { SHOP } from '../../support/plan-fixtures';

const ctx = { datasourceId: 'shop' };
const codes = (r: ReturnType<typeof validatePlan>) => r.problems.map((p) => p.code);

describe('validatePlan', () => {
  it('accepts a correct plan', () => {
    const plan = b.query(
      b.select({
        columns: [b.col('name', 'c'), b.item(b.countStar(), 'n')],
        from: b.join(
          'inner',
          b.table('customers', 'c'),
          b.table('orders', 'o'),
          b.cmp('=', b.col('id', 'c'), b.col('customer_id', 'o')),
        ),
        groupBy: [b.col('id', 'c')],
      }),
    );
    expect(validatePlan(plan, SHOP, ctx)).toEqual({ ok: true, problems: [], warnings: [] });
  });

  it('unknown column: stable code, path into the plan, close-name suggestion', () => {
    const plan = b.query(b.select({ columns: [b.col('nmae')], from: b.table('customers') }));
    const r = validatePlan(plan, SHOP, ctx);
    expect(r.ok).toBe(false);
    expect(r.problems[0]).toMatchObject({
      code: 'UNKNOWN_COLUMN',
      path: '/body/columns/0/expr/name',
      suggestion: 'name',
    });
    expect(r.problems[0]!.message).toContain('Did you mean "name"?');
  });

  it('a column two joined tables share must be qualified; one only one of them has needs not', () => {
    const joined = (columns: ReturnType<typeof b.col>[]) =>
      b.query(
        b.select({
          columns,
          from: b.join(
            'inner',
            b.table('customers', 'c'),
            b.table('orders', 'o'),
            b.cmp('=', b.col('id', 'c'), b.col('customer_id', 'o')),
          ),
        }),
      );
    const r = validatePlan(joined([b.col('id')]), SHOP, ctx);
    expect(r.problems).toEqual([
      expect.objectContaining({ code: 'AMBIGUOUS_COLUMN', path: '/body/columns/0/expr' }),
    ]);
    expect(r.problems[0]!.message).toContain('(c.id, o.id)');
    expect(validatePlan(joined([b.col('email'), b.col('amount')]), SHOP, ctx).problems).toEqual([]);
  });

  it('unknown table with a suggestion', () => {
    const r = validatePlan(b.query(b.select({ columns: [b.star()], from: b.table('custmers') })), SHOP, ctx);
    expect(r.problems[0]).toMatchObject({
      code: 'UNKNOWN_TABLE',
      path: '/body/from/name',
      suggestion: 'customers',
    });
  });

  it('bad grouping: a column neither grouped nor aggregated', () => {
    const plan = b.query(
      b.select({
        columns: [b.col('code'), b.countStar()],
        from: b.table('orders'),
        groupBy: [b.col('customer_id')],
      }),
    );
    const r = validatePlan(plan, SHOP, ctx);
    expect(r.problems).toEqual([
      expect.objectContaining({ code: 'UNGROUPED_COLUMN', path: '/body/columns/0/expr' }),
    ]);
  });

  it('grouping by a primary key makes the other columns of that table valid', () => {
    const plan = b.query(
      b.select({
        columns: [b.col('name'), b.countStar()],
        from: b.table('customers'),
        groupBy: [b.col('id')],
      }),
    );
    expect(validatePlan(plan, SHOP, ctx).ok).toBe(true);
  });

  it('aggregates in WHERE and nested aggregates are refused', () => {
    const plan = b.query(
      b.select({
        columns: [b.agg('max', b.agg('sum', b.col('amount')))],
        from: b.table('orders'),
        where: b.cmp('>', b.countStar(), b.lit(1)),
      }),
    );
    expect(codes(validatePlan(plan, SHOP, ctx)).sort()).toEqual(['MISPLACED_AGGREGATE', 'NESTED_AGGREGATE']);
  });

  it('shape errors are reported against the JSON Schema', () => {
    const r = validatePlan({ kind: 'query', body: { kind: 'delete' } }, SHOP, ctx);
    expect(r.problems[0]!.code).toBe('PLAN_SCHEMA_VIOLATION');
  });

  it('function arity, LIMIT bounds, set-operation widths', () => {
    const bad = b.query(
      b.setOp(
        'union',
        b.select({ columns: [b.fn('upper')], from: b.table('customers') }),
        b.select({ columns: [b.col('id'), b.col('name')], from: b.table('customers') }),
      ),
      { limit: 10_000_000 },
    );
    expect(codes(validatePlan(bad, SHOP, ctx)).sort()).toEqual([
      'BAD_ARGUMENTS',
      'LIMIT_TOO_LARGE',
      'SET_OP_COLUMN_COUNT',
    ]);
  });

  it('joins: type mismatch without a foreign key is refused, a compatible one warns', () => {
    const j = (l: string, r: string) =>
      b.query(
        b.select({
          columns: [b.countStar()],
          from: b.join(
            'inner',
            b.table('customers', 'c'),
            b.table('orders', 'o'),
            b.cmp('=', b.col(l, 'c'), b.col(r, 'o')),
          ),
        }),
      );
    expect(codes(validatePlan(j('name', 'id'), SHOP, ctx))).toEqual(['JOIN_TYPE_MISMATCH']);
    const ok = validatePlan(j('id', 'id'), SHOP, ctx);
    expect(ok.ok).toBe(true);
    expect(ok.warnings.map((w) => w.code)).toEqual(['JOIN_WITHOUT_FOREIGN_KEY']);
  });

  describe('role policies', () => {
    const rolePolicies = {
      analyst: {
        datasources: ['shop'],
        tables: { deny: ['shop.salaries'] },
        columns: { deny: ['shop.customers.email'] },
      },
      outsider: { datasources: ['other'] },
    };
    it('denied table', () => {
      const r = validatePlan(
        b.query(b.select({ columns: [b.col('amount')], from: b.table('salaries') })),
        SHOP,
        { ...ctx, roles: ['analyst'], rolePolicies },
      );
      expect(codes(r)).toEqual(['TABLE_DENIED']);
      expect(REFUSAL_CODES).toContain('TABLE_DENIED');
    });
    it('denied column, also through *', () => {
      const named = validatePlan(
        b.query(b.select({ columns: [b.col('email')], from: b.table('customers') })),
        SHOP,
        { ...ctx, roles: ['analyst'], rolePolicies },
      );
      expect(named.problems[0]).toMatchObject({ code: 'COLUMN_DENIED', path: '/body/columns/0/expr' });
      const star = validatePlan(
        b.query(b.select({ columns: [b.star()], from: b.table('customers') })),
        SHOP,
        { ...ctx, roles: ['analyst'], rolePolicies },
      );
      expect(codes(star)).toEqual(['COLUMN_DENIED']);
      const allowed = validatePlan(
        b.query(b.select({ columns: [b.col('name')], from: b.table('customers') })),
        SHOP,
        { ...ctx, roles: ['analyst'], rolePolicies },
      );
      expect(allowed.ok).toBe(true);
    });
    it('a role not listed reads nothing; without a roles section everyone reads everything', () => {
      const plan = b.query(b.select({ columns: [b.col('name')], from: b.table('customers') }));
      expect(codes(validatePlan(plan, SHOP, { ...ctx, roles: ['stranger'], rolePolicies }))).toEqual([
        'DATASOURCE_DENIED',
      ]);
      expect(codes(validatePlan(plan, SHOP, { ...ctx, roles: ['outsider'], rolePolicies }))).toEqual([
        'DATASOURCE_DENIED',
      ]);
      expect(validatePlan(plan, SHOP, { ...ctx, roles: ['stranger'] }).ok).toBe(true);
    });
    it('table allow lists', () => {
      const policies = { reader: { tables: { allow: ['shop.orders'] } } };
      const plan = b.query(b.select({ columns: [b.col('name')], from: b.table('customers') }));
      expect(codes(validatePlan(plan, SHOP, { ...ctx, roles: ['reader'], rolePolicies: policies }))).toEqual([
        'TABLE_DENIED',
      ]);
    });
  });

  it('warns when avg or sum is taken over text, or text is compared with a number (engines read it differently)', () => {
    const over = (fn: 'avg' | 'sum' | 'max') =>
      validatePlan(
        b.query(b.select({ columns: [b.item(b.agg(fn, b.col('placed')), 'x')], from: b.table('orders') })),
        SHOP,
        ctx,
      );
    expect(over('avg').warnings.map((w) => w.code)).toEqual(['AGGREGATE_OVER_TEXT']);
    expect(over('avg').ok).toBe(true);
    expect(over('sum').warnings.map((w) => w.code)).toEqual(['AGGREGATE_OVER_TEXT']);
    expect(over('max').warnings).toEqual([]);
    const compared = validatePlan(
      b.query(
        b.select({
          columns: [b.col('id')],
          from: b.table('orders'),
          where: b.cmp('>', b.col('placed'), b.lit(1990)),
        }),
      ),
      SHOP,
      ctx,
    );
    expect(compared.warnings.map((w) => w.code)).toEqual(['COMPARISON_TYPE_MISMATCH']);
  });
});

/**
 * Plans and SQL drafts nested past the depth limits end in the typed PLAN_TOO_COMPLEX, checked
 * before any recursive walk (the SQL before it is parsed), never in a stack overflow; plans within
 * the limits import, validate and compile as before.
 */
import {
  MAX_PLAN_DEPTH,
  MAX_SQL_NESTING,
  PLAN_JSON_SCHEMA,
  PROBLEM_CODES,
  compilePlan,
  importSql,
  validatePlan,
  type Plan,
} from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import { sqlNesting } from '../../../src/engine/plan/limits';
import type * as T from '../../../src/engine/plan/types';
import { SHOP } from '../../support/plan-fixtures';

const DIALECTS = ['sqlite', 'postgres', 'mysql', 'duckdb'] as const;
const CTX = { datasourceId: 'shop' };

const tooComplex = expect.objectContaining({ code: 'PLAN_TOO_COMPLEX' });

/** SELECT ... FROM (SELECT ... FROM (... orders ...) AS t1) AS t0 */
const derivedSql = (n: number): string =>
  `SELECT id FROM ${'(SELECT id FROM '.repeat(n)}orders${Array.from({ length: n }, (_, i) => `) AS t${i}`).join('')}`;

function derivedPlan(n: number): Plan {
  let q = b.query(b.select({ columns: [b.col('id')], from: b.table('orders') }));
  for (let i = 0; i < n; i++) q = b.query(b.select({ columns: [b.col('id')], from: b.derived(q, `t${i}`) }));
  return q;
}

function nestedExprPlan(n: number): Plan {
  let e: T.Expr = b.col('amount');
  for (let i = 0; i < n; i++) e = b.arith('+', e, b.lit(1));
  return b.query(b.select({ columns: [e], from: b.table('orders') }));
}

describe('a SQL draft nested 1,000 deep', () => {
  const drafts: [string, string][] = [
    ['parenthesised expressions', `SELECT ${'('.repeat(1000)}amount${')'.repeat(1000)} FROM orders`],
    ['nested function calls', `SELECT ${'abs('.repeat(1000)}amount${')'.repeat(1000)} FROM orders`],
    ['a chain of additions', `SELECT ${Array(1000).fill('amount').join(' + ')} FROM orders`],
    ['NOT NOT NOT ...', `SELECT id FROM orders WHERE ${'NOT '.repeat(1000)}id = 1`],
    ['nested CASE', `SELECT ${'CASE WHEN id = 1 THEN '.repeat(1000)}1${' END'.repeat(1000)} FROM orders`],
    ['derived tables', derivedSql(1000)],
    ['scalar subqueries', `SELECT ${'(SELECT '.repeat(1000)}1${')'.repeat(1000)}`],
    ['set operations', Array(1000).fill('SELECT id FROM orders').join(' UNION ')],
  ];
  it.each(drafts)('of %s ends in PLAN_TOO_COMPLEX', (_, sql) => {
    for (const d of DIALECTS) expect(() => importSql(sql, d, SHOP)).toThrow(tooComplex);
  });

  it('is refused by the text scan before it is parsed, naming the limit', () => {
    expect(() => importSql(derivedSql(1000), 'postgres', SHOP)).toThrow(
      expect.objectContaining({ code: 'PLAN_TOO_COMPLEX', details: { limit: MAX_SQL_NESTING } }),
    );
  });
});

describe('a JSON plan nested 1,000 deep', () => {
  it.each([
    ['expressions', nestedExprPlan(1000)],
    ['derived tables', derivedPlan(1000)],
  ])(
    'of %s is a PLAN_TOO_COMPLEX problem of the validator and a PLAN_TOO_COMPLEX error of the compiler',
    (_, plan) => {
      const result = validatePlan(plan, SHOP, CTX);
      expect(result.ok).toBe(false);
      expect(result.problems).toEqual([
        expect.objectContaining({
          code: 'PLAN_TOO_COMPLEX',
          path: '/',
          message: expect.stringContaining(`${MAX_PLAN_DEPTH}`),
        }),
      ]);
      for (const d of DIALECTS) expect(() => compilePlan(plan, d, { schema: SHOP })).toThrow(tooComplex);
    },
  );

  it('of bare arrays, or any JSON, is refused before the shape check recurses', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(validatePlan({ kind: 'query', with: deep }, SHOP, CTX).problems[0]?.code).toBe('PLAN_TOO_COMPLEX');
  });

  it('is a plan problem: sent back to the planner and retried like the others', () => {
    expect(PROBLEM_CODES).toContain('PLAN_TOO_COMPLEX');
  });
});

describe('within the limits', () => {
  it('a SQL draft with 30 nested derived tables and 60 parentheses imports, validates and compiles', () => {
    const nested = importSql(derivedSql(30), 'sqlite', SHOP);
    expect(validatePlan(nested, SHOP, CTX).problems).toEqual([]);
    const parens = importSql(`SELECT ${'('.repeat(60)}amount${')'.repeat(60)} FROM orders`, 'sqlite', SHOP);
    expect(validatePlan(parens, SHOP, CTX).ok).toBe(true);
    for (const d of DIALECTS) {
      expect(compilePlan(nested, d, { schema: SHOP }).sql).toContain(
        'AS "t29"'.replace(/"/g, d === 'mysql' ? '`' : '"'),
      );
    }
  });

  it('a JSON plan with an expression nested 100 deep validates and compiles', () => {
    const plan = nestedExprPlan(100);
    expect(validatePlan(plan, SHOP, CTX).ok).toBe(true);
    expect(compilePlan(plan, 'postgres', { schema: SHOP }).params).toHaveLength(100);
  });

  it('the published plan schema is unchanged by the limits (they are checked, not declared)', () => {
    expect(JSON.stringify(PLAN_JSON_SCHEMA)).not.toContain('maxDepth');
  });
});

describe('sqlNesting', () => {
  it('counts parentheses, CASE blocks, runs of prefix operators and set operators', () => {
    expect(sqlNesting('SELECT ((1))', 'sqlite')).toBe(2);
    expect(sqlNesting('SELECT CASE WHEN (a) THEN CASE WHEN b THEN 1 END END', 'sqlite')).toBe(2);
    expect(sqlNesting('SELECT NOT NOT - -1', 'postgres')).toBe(4);
    expect(sqlNesting('SELECT a - b - c - d', 'postgres')).toBe(1);
    expect(sqlNesting('SELECT 1 UNION SELECT 2 UNION (SELECT 3 EXCEPT SELECT 4)', 'sqlite')).toBe(4);
  });

  it('skips strings, quoted identifiers and comments', () => {
    const noise = '('.repeat(500);
    expect(
      sqlNesting(`SELECT '${noise}' AS "${noise}" -- ${noise}\n /* ${noise} */ FROM t`, 'postgres'),
    ).toBe(0);
    expect(sqlNesting(`SELECT 'it''s ${noise}', \`${noise}\``, 'mysql')).toBe(0);
    expect(sqlNesting(`SELECT 'a\\' ${noise}'`, 'mysql')).toBe(0);
    expect(importSql(`SELECT id FROM orders WHERE name = '${noise}'`, 'sqlite', SHOP).kind).toBe('query');
  });
});

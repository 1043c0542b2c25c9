/**
 * No value is ever spliced into SQL, by construction. Every slot of the plan definition that holds
 * free text, a number or a boolean is classified here (a new one fails the first test until it
 * is), and for every node kind of the definition, every expression it can hold is filled with a
 * hostile value of each literal type (and with a parameter carrying one): for every dialect the
 * SQL given to the driver holds no trace of any of them, and the parameters hold each. Names are
 * quoted whatever they contain; closed-list fields (operators, function names) and integers
 * refuse anything else; a verified query's parameter is bound like a literal.
 */
import { compilePlan, importSql, PlanError, type Plan } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import type { Dialect } from '../../../src/engine/datasources/schema';
import { SHOP } from '../../support/plan-fixtures';
import { definition, enumSlots, fill, nodeDefinitions, scalarSlots } from './schema-samples';

const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres', 'duckdb', 'mysql'];

/** What each free scalar slot of the definition is, and so how it reaches SQL. */
const SLOT_CLASSES: Record<string, 'value' | 'identifier' | 'integer' | 'flag'> = {
  'Literal.value': 'value', // bound
  'Param.name': 'identifier', // never in SQL: the parameter's value is bound
  'Column.table': 'identifier',
  'Column.name': 'identifier',
  'Star.table': 'identifier',
  'SelectItem.alias': 'identifier',
  'TableRef.name': 'identifier',
  'TableRef.alias': 'identifier',
  'Derived.alias': 'identifier',
  'Cte.name': 'identifier',
  'Query.limit': 'integer',
  'Query.offset': 'integer',
  'FrameBound.offset': 'integer',
  'InList.negated': 'flag',
  'InQuery.negated': 'flag',
  'Exists.negated': 'flag',
  'Between.negated': 'flag',
  'Like.negated': 'flag',
  'Like.case_insensitive': 'flag',
  'IsNull.negated': 'flag',
  'Aggregate.distinct': 'flag',
  'Select.distinct': 'flag',
  'SetOp.all': 'flag',
};

it('every free scalar slot of the plan definition is classified (a new one must be covered here)', () => {
  expect(
    scalarSlots()
      .map((s) => `${s.def}.${s.prop}`)
      .sort(),
  ).toEqual(Object.keys(SLOT_CLASSES).sort());
});

// ---------- values ----------

type Leaf = 'text' | 'backslash text' | 'integer' | 'float' | 'date' | 'timestamp' | 'boolean' | 'param';
const LEAVES: readonly Leaf[] = [
  'text',
  'backslash text',
  'integer',
  'float',
  'date',
  'timestamp',
  'boolean',
  'param',
];

/** One hostile value per expression slot, each with a marker of its own to find it by. */
class Sentinels {
  readonly markers: string[] = [];
  readonly params: Record<string, string | number | boolean> = {};
  private n = 0;

  constructor(private readonly leaf: Leaf) {}

  expr(): unknown {
    const n = ++this.n;
    const text = `x' OR 1=1 -- zq${n}zq`;
    switch (this.leaf) {
      case 'text':
        return this.mark(`zq${n}zq`, b.lit(text));
      case 'backslash text':
        return this.mark(`zq${n}zq`, b.lit(`\\' OR 1=1 -- zq${n}zq`));
      case 'integer':
        return this.mark(`${900_000_000 + n}`, b.lit(900_000_000 + n));
      case 'float':
        return this.mark(`${800_000_000 + n}.25`, b.lit(800_000_000 + n + 0.25, 'float'));
      case 'date':
        return this.mark(`zq${n}zq`, b.lit(`2024-01-01' OR 1=1 -- zq${n}zq`, 'date'));
      case 'timestamp':
        return this.mark(`zq${n}zq`, b.lit(`2024-01-01 00:00:00' OR 1=1 -- zq${n}zq`, 'timestamp'));
      case 'boolean':
        this.markers.push('');
        return b.lit(true, 'boolean');
      case 'param':
        this.params[`p${n}`] = text;
        return this.mark(`zq${n}zq`, b.param(`p${n}`));
    }
  }

  /** A value for the one parameter the sample of the param kind names. */
  leafValue(): string {
    const n = ++this.n;
    this.markers.push(`zq${n}zq`);
    return `x' OR 1=1 -- zq${n}zq`;
  }

  private mark<T>(marker: string, node: T): T {
    this.markers.push(marker);
    return node;
  }
}

/** Fills every slot of a definition: expressions with sentinels, the rest with plain parts. */
function sample(def: string, s: Sentinels): unknown {
  const leaf = (d: string): unknown => {
    switch (d) {
      case 'Expr':
        return s.expr();
      case 'Query':
        return b.query(b.select({ columns: [s.expr() as never], from: b.table('orders') }));
      case 'Body':
      case 'Select':
        return b.select({ columns: [s.expr() as never], from: b.table('orders') });
      case 'From':
      case 'TableRef':
        return b.table('orders');
      case 'FrameBound':
        return { bound: 'preceding', offset: 2 };
      default:
        return fill(definition(d), leaf);
    }
  };
  return fill(definition(def), leaf);
}

/** A whole plan around a node of the given definition. */
function planAround(def: string, kind: string, s: Sentinels): Plan {
  const node = sample(def, s) as never;
  // The sample param node is named x (as the schema's filler names every text field).
  if (kind === 'param') s.params.x = s.leafValue();
  if (kind === 'query') return node;
  if (kind === 'select' || kind === 'set_op') return b.query(node);
  if (kind === 'table' || kind === 'derived' || kind === 'join')
    return b.query(b.select({ columns: [s.expr() as never], from: node }));
  return b.query(b.select({ columns: [b.item(node, 'v')], from: b.table('orders') }));
}

const cases = nodeDefinitions().flatMap(({ def, kind }) => LEAVES.map((leaf) => ({ def, kind, leaf })));

it.each(cases)(
  '$kind with $leaf values in every slot: bound on every dialect, no trace in the SQL',
  ({ def, kind, leaf }) => {
    let compiled = 0;
    for (const d of DIALECTS) {
      const s = new Sentinels(leaf);
      const plan = planAround(def, kind, s);
      let out;
      try {
        out = compilePlan(plan, d, { schema: SHOP, params: s.params });
      } catch (err) {
        // A construct the dialect cannot express is refused as a whole, never half-written.
        expect(err).toBeInstanceOf(PlanError);
        expect((err as PlanError).code).toBe('PLAN_UNSUPPORTED');
        continue;
      }
      compiled++;
      expect(out.sql).not.toMatch(/OR 1=1|zq\d+zq|[89]000000\d\d/);
      if (leaf === 'boolean' && d !== 'sqlite') expect(out.sql).not.toMatch(/\bTRUE\b/i);
      const params = out.params.map(String);
      for (const marker of s.markers.filter((m) => m !== '')) {
        expect({ d, marker, found: params.some((p) => p.includes(marker)) }).toEqual({
          d,
          marker,
          found: true,
        });
      }
      if (leaf === 'boolean') {
        const bools = out.params.filter((p) => p === true || p === 1).length;
        expect(bools).toBeGreaterThanOrEqual(s.markers.filter((m) => m === '').length);
      }
    }
    expect(compiled).toBeGreaterThan(0);
  },
);

// ---------- names, closed lists, integers ----------

it.each(DIALECTS)('%s: a name holding quotes and SQL is only ever a quoted identifier', (d) => {
  const hostile = () => 'n" OR 1=1 -- `x';
  for (const { def, kind } of nodeDefinitions()) {
    const node = fill(
      definition(def),
      (x) => (x === 'Expr' ? b.col(hostile(), hostile()) : fill(definition(x), () => b.col('c'), hostile)),
      hostile,
    );
    let plan: Plan;
    if (kind === 'query') plan = node as Plan;
    else if (kind === 'select' || kind === 'set_op') plan = b.query(node as never);
    else if (kind === 'table' || kind === 'derived' || kind === 'join')
      plan = b.query(b.select({ columns: [b.col('c')], from: node as never }));
    else
      plan = b.query(
        b.select({ columns: [b.item(node as never, hostile())], from: b.table(hostile(), hostile()) }),
      );
    let sql: string;
    try {
      sql = compilePlan(plan, d, { params: { [hostile()]: 1, x: 1 } }).sql;
    } catch (err) {
      expect((err as PlanError).code).toMatch(/^(PLAN_UNSUPPORTED|PLAN_MALFORMED|PLAN_PARAM_MISSING)$/);
      continue;
    }
    const quoted = d === 'mysql' ? /`(?:[^`]|``)*`/g : /"(?:[^"]|"")*"/g;
    expect({ kind, rest: sql.replace(quoted, 'ID') }).not.toEqual({
      kind,
      rest: expect.stringMatching(/OR 1=1/),
    });
  }
});

/** Where a definition without a kind of its own sits: in which node kind, at which path. */
const HOSTS: Record<string, [string, (string | number)[]]> = {
  Frame: ['Window', ['frame']],
  FrameBound: ['Window', ['frame', 'start']],
  OrderItem: ['Query', ['order_by', 0]],
};

/** A complete node of a definition, every slot filled with plain parts. */
function plainNode(def: string): Record<string, unknown> {
  const leaf = (d: string): unknown => {
    if (d === 'Expr') return b.col('id');
    if (d === 'Query') return b.query(b.select({ columns: [b.col('id')], from: b.table('orders') }));
    if (d === 'Body' || d === 'Select') return b.select({ columns: [b.col('id')], from: b.table('orders') });
    if (d === 'From' || d === 'TableRef') return b.table('orders');
    return fill(definition(d), leaf);
  };
  return fill(definition(def), leaf) as Record<string, unknown>;
}

it.each(enumSlots().map((s) => [`${s.def}.${s.prop}`, s.def, s.prop] as const))(
  'the closed-list field %s refuses anything off its list (PLAN_MALFORMED), on every dialect',
  (_, def, prop) => {
    const hasKind = definition(def).properties?.kind !== undefined;
    const [hostDef, path] = hasKind ? [def, []] : (HOSTS[def] ?? ['(a new definition: add its host)', []]);
    const host = plainNode(hostDef) as Record<string | number, any>;
    let target = host;
    for (const key of path) target = target[key];
    target[prop] = '= 1 OR 1=1 --';
    const plan =
      host.kind === 'query'
        ? host
        : b.query(b.select({ columns: [b.item(host as never)], from: b.table('orders') }));
    for (const d of DIALECTS) {
      expect(() => compilePlan(plan as Plan, d)).toThrow(expect.objectContaining({ code: 'PLAN_MALFORMED' }));
    }
  },
);

it.each([
  [
    'limit',
    (v: unknown) => ({ ...b.query(b.select({ columns: [b.col('id')], from: b.table('orders') })), limit: v }),
  ],
  [
    'offset',
    (v: unknown) => ({
      ...b.query(b.select({ columns: [b.col('id')], from: b.table('orders') })),
      offset: v,
    }),
  ],
  [
    'a frame offset',
    (v: unknown) =>
      b.query(
        b.select({
          columns: [
            b.windowFn('sum', [b.col('amount')], {
              orderBy: [b.order(b.col('id'))],
              frame: {
                unit: 'rows',
                start: { bound: 'preceding', offset: v as number },
                end: { bound: 'current_row', offset: null },
              },
            }),
          ],
          from: b.table('orders'),
        }),
      ),
  ],
])('%s is written only as a checked integer: text, fractions and negatives are refused', (_, planWith) => {
  for (const d of DIALECTS) {
    for (const bad of ['1; DROP TABLE orders', 1.5, -1, '1 OR 1=1']) {
      expect(() => compilePlan(planWith(bad) as Plan, d)).toThrow(PlanError);
    }
    expect(compilePlan(planWith(7) as Plan, d).sql).toMatch(/\b7\b/);
  }
});

it.each(DIALECTS)(
  "%s: a verified query's parameter is bound, never spliced (MySQL backslash attacks included)",
  (d) => {
    const plan = importSql(
      'SELECT id FROM customers WHERE name = :who OR country LIKE :pattern OR id IN (:n, 2)',
      d === 'duckdb' ? 'postgres' : d,
      SHOP,
    );
    const who = "\\' OR 1=1 -- ";
    const pattern = "item 1' UNION SELECT name, salary, 1 FROM payroll -- ";
    const { sql, params } = compilePlan(plan, d, {
      schema: SHOP,
      params: { who, pattern, n: "x' OR SLEEP(3) -- " },
    });
    expect(sql).not.toMatch(/OR 1=1|UNION|SLEEP|payroll|\\/);
    expect(params).toEqual(expect.arrayContaining([who, "x' OR SLEEP(3) -- "]));
    expect(params.some((p) => String(p).includes('UNION SELECT name, salary'))).toBe(true);
  },
);

it.each(DIALECTS)('%s: a parameter value that is not text, a number or a boolean is refused', (d) => {
  const plan = b.query(
    b.select({
      columns: [b.col('id')],
      from: b.table('orders'),
      where: b.cmp('=', b.col('id'), b.param('p')),
    }),
  );
  expect(() => compilePlan(plan, d, { params: { p: { toString: () => '1 OR 1=1' } as never } })).toThrow(
    expect.objectContaining({ code: 'PLAN_MALFORMED' }),
  );
});

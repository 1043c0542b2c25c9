/**
 * The plan language: a typed, read-only SQL query AST. This TypeBox module is the ONE definition.
 * Both the JSON Schema given to the model (`plan.schema.json`) and the TypeScript types
 * (`types.generated.ts`) are generated from it by `generate.ts` (TypeScript cannot infer types
 * this mutually recursive from TypeBox: "instantiation is excessively deep"), and a test fails
 * when either generated file differs from what this module produces, so they cannot drift.
 *
 * Shape rules that keep the schema usable by strict structured-output modes: every object is
 * closed, every property is present (an absent value is `null`, an absent list is `[]`), every
 * node carries a `kind` tag. Field names are snake_case because the plan is a wire shape.
 * No node can express a write: there is no INSERT/UPDATE/DELETE/DDL kind at all.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { SCALAR_FUNCTION_NAMES, WINDOW_FUNCTION_NAMES } from './functions';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Enum = <T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as any;
const Node = <K extends string, P extends Record<string, TSchema>>(kind: K, props: P, description: string) =>
  Type.Object({ kind: Type.Literal(kind), ...props }, { additionalProperties: false, description });

export const CAST_TYPES = ['integer', 'float', 'decimal', 'text', 'boolean', 'date', 'timestamp'] as const;
export const LITERAL_TYPES = ['integer', 'float', 'text', 'boolean', 'date', 'timestamp'] as const;
export const AGGREGATE_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max'] as const;
export const WINDOW_FUNCTIONS = WINDOW_FUNCTION_NAMES;
export const COMPARE_OPS = ['=', '<>', '<', '<=', '>', '>='] as const;
export const ARITH_OPS = ['+', '-', '*', '/', '%'] as const;
export const JOIN_TYPES = ['inner', 'left', 'right', 'full', 'cross'] as const;
export const SET_OPS = ['union', 'intersect', 'except'] as const;
export const FRAME_BOUNDS = [
  'unbounded_preceding',
  'preceding',
  'current_row',
  'following',
  'unbounded_following',
] as const;

const E = Type.Ref('Expr');
const Q = Type.Ref('Query');
const Exprs = Type.Array(E);

export const PlanModule = Type.Module({
  Expr: Type.Union([
    Type.Ref('Column'),
    Type.Ref('Literal'),
    Type.Ref('Param'),
    Type.Ref('Negate'),
    Type.Ref('Arith'),
    Type.Ref('Concat'),
    Type.Ref('Compare'),
    Type.Ref('And'),
    Type.Ref('Or'),
    Type.Ref('Not'),
    Type.Ref('InList'),
    Type.Ref('InQuery'),
    Type.Ref('Exists'),
    Type.Ref('Between'),
    Type.Ref('Like'),
    Type.Ref('IsNull'),
    Type.Ref('Case'),
    Type.Ref('Cast'),
    Type.Ref('Func'),
    Type.Ref('Aggregate'),
    Type.Ref('Window'),
    Type.Ref('Subquery'),
    Type.Ref('Star'),
  ]),
  Column: Node(
    'column',
    { table: Nullable(Type.String()), name: Type.String() },
    'A column. `table` is a table name, alias, CTE or derived-table alias in scope; null when unambiguous. In ORDER BY a bare name may also be an output alias.',
  ),
  Literal: Node(
    'literal',
    {
      value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
      type: Nullable(Enum(LITERAL_TYPES)),
    },
    'A constant; always sent as a bound parameter. `type` is a hint (e.g. float for 1.0, date for a date string); null infers it from the value.',
  ),
  Param: Node('param', { name: Type.String() }, 'A named parameter whose value is supplied at run time.'),
  Negate: Node('negate', { arg: E }, 'Arithmetic negation: -arg'),
  Arith: Node(
    'arith',
    { op: Enum(ARITH_OPS), left: E, right: E },
    'Arithmetic. `/` of two integers is integer division, as in SQLite.',
  ),
  Concat: Node('concat', { args: Exprs }, 'String concatenation of the arguments (SQL ||)'),
  Compare: Node('compare', { op: Enum(COMPARE_OPS), left: E, right: E }, 'Comparison'),
  And: Node('and', { args: Exprs }, 'All arguments true'),
  Or: Node('or', { args: Exprs }, 'Any argument true'),
  Not: Node('not', { arg: E }, 'Negation'),
  InList: Node('in_list', { expr: E, values: Exprs, negated: Type.Boolean() }, 'expr [NOT] IN (values)'),
  InQuery: Node(
    'in_query',
    { expr: E, query: Q, negated: Type.Boolean() },
    'expr [NOT] IN (one-column subquery)',
  ),
  Exists: Node('exists', { query: Q, negated: Type.Boolean() }, '[NOT] EXISTS (subquery)'),
  Between: Node(
    'between',
    { expr: E, low: E, high: E, negated: Type.Boolean() },
    'expr [NOT] BETWEEN low AND high (inclusive)',
  ),
  Like: Node(
    'like',
    { expr: E, pattern: E, negated: Type.Boolean(), case_insensitive: Type.Boolean() },
    'Pattern match with % and _. case_insensitive true matches letters regardless of case (SQLite LIKE, ILIKE).',
  ),
  IsNull: Node('is_null', { expr: E, negated: Type.Boolean() }, 'expr IS [NOT] NULL'),
  Case: Node(
    'case',
    {
      operand: Nullable(E),
      whens: Type.Array(Type.Object({ when: E, then: E }, { additionalProperties: false })),
      else: Nullable(E),
    },
    'CASE [operand] WHEN .. THEN .. ELSE .. END',
  ),
  Cast: Node('cast', { expr: E, to: Enum(CAST_TYPES) }, 'CAST(expr AS type)'),
  Func: Node(
    'func',
    { name: Enum(SCALAR_FUNCTION_NAMES), args: Exprs },
    'An allow-listed scalar function (date parts: year, month, day, hour, minute, second).',
  ),
  Aggregate: Node(
    'aggregate',
    { fn: Enum(AGGREGATE_FUNCTIONS), arg: Nullable(E), distinct: Type.Boolean() },
    'Aggregate. count with arg null is COUNT(*).',
  ),
  Window: Node(
    'window',
    {
      fn: Enum(WINDOW_FUNCTIONS),
      args: Exprs,
      partition_by: Exprs,
      order_by: Type.Array(Type.Ref('OrderItem')),
      frame: Nullable(Type.Ref('Frame')),
    },
    'Window function: fn(args) OVER (PARTITION BY .. ORDER BY .. frame). count with no args is COUNT(*).',
  ),
  Frame: Type.Object(
    {
      unit: Enum(['rows', 'range'] as const),
      start: Type.Ref('FrameBound'),
      end: Type.Ref('FrameBound'),
    },
    { additionalProperties: false },
  ),
  FrameBound: Type.Object(
    { bound: Enum(FRAME_BOUNDS), offset: Nullable(Type.Integer()) },
    {
      additionalProperties: false,
      description: 'offset is required for preceding/following, null otherwise',
    },
  ),
  Subquery: Node('subquery', { query: Q }, 'A scalar subquery: one column, at most one row'),
  Star: Node('star', { table: Nullable(Type.String()) }, '* or table.* ; only as a select item'),
  OrderItem: Type.Object(
    { expr: E, direction: Enum(['asc', 'desc'] as const), nulls: Nullable(Enum(['first', 'last'] as const)) },
    {
      additionalProperties: false,
      description: 'nulls null means NULLs sort as the smallest value (first ascending, last descending)',
    },
  ),
  SelectItem: Type.Object({ expr: E, alias: Nullable(Type.String()) }, { additionalProperties: false }),
  From: Type.Union([Type.Ref('TableRef'), Type.Ref('Derived'), Type.Ref('Join')]),
  TableRef: Node('table', { name: Type.String(), alias: Nullable(Type.String()) }, 'A table or CTE by name'),
  Derived: Node('derived', { query: Q, alias: Type.String() }, 'A subquery in FROM'),
  Join: Node(
    'join',
    { join_type: Enum(JOIN_TYPES), left: Type.Ref('From'), right: Type.Ref('From'), on: Nullable(E) },
    'left JOIN right ON on; on is null only for cross joins',
  ),
  Select: Node(
    'select',
    {
      distinct: Type.Boolean(),
      columns: Type.Array(Type.Ref('SelectItem')),
      from: Nullable(Type.Ref('From')),
      where: Nullable(E),
      group_by: Exprs,
      having: Nullable(E),
    },
    'SELECT [DISTINCT] columns FROM .. WHERE .. GROUP BY .. HAVING ..',
  ),
  SetOp: Node(
    'set_op',
    { op: Enum(SET_OPS), all: Type.Boolean(), left: Type.Ref('Body'), right: Type.Ref('Body') },
    'left UNION|INTERSECT|EXCEPT [ALL] right',
  ),
  Body: Type.Union([Type.Ref('Select'), Type.Ref('SetOp'), Q]),
  Cte: Type.Object({ name: Type.String(), query: Q }, { additionalProperties: false }),
  Query: Node(
    'query',
    {
      with: Type.Array(Type.Ref('Cte')),
      body: Type.Ref('Body'),
      order_by: Type.Array(Type.Ref('OrderItem')),
      limit: Nullable(Type.Integer({ minimum: 0 })),
      offset: Nullable(Type.Integer({ minimum: 0 })),
    },
    'A query: WITH ctes, a body (select or set operation), ORDER BY, LIMIT, OFFSET. The plan itself is a query.',
  ),
});

export const PlanSchema = PlanModule.Import('Query');

export type CastType = (typeof CAST_TYPES)[number];
export type LiteralType = (typeof LITERAL_TYPES)[number];

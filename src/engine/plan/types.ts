/** The plan node types (generated from ast.ts) and a few derived names used across the plan code. */
import type { TypeKind } from '../datasources/schema';
import type { Expr, Query } from './types.generated';

export type * from './types.generated';
export type Plan = Query;
export type ExprKind = Expr['kind'];
export type ExprOf<K extends ExprKind> = Extract<Expr, { kind: K }>;
export type AggregateFn = ExprOf<'aggregate'>['fn'];
/** What the plan code knows of an expression's type: a column kind, NULL, or not known. */
export type InferredType = TypeKind | 'null' | 'unknown';

/**
 * What the clause readers of the importer share: the source (dialect, schema, text), the state of
 * one import (derived-table names, the USING columns of each SELECT being read) and the entry
 * points of the mutually recursive readers (an expression holds a subquery, a query holds
 * expressions). importer.ts wires those entry points to the clause modules, which know each other
 * only through this interface.
 */
import type { Node } from 'sql-parser-cst';
import type { Dialect, SchemaSnapshot } from '../../datasources/schema';
import type * as T from '../types';

/** What a bare column name stands for in one SELECT whose FROM joins with USING. */
export type UsingColumns = Map<string, T.Expr>;

export interface Reader {
  readonly dialect: Dialect;
  readonly schema: SchemaSnapshot | null;
  /** The SQL being imported (messages quote parts of it). */
  readonly sql: string;
  /** `:user.<name>` reads as the parameter `user.<name>` (row filters only). */
  readonly attributeParams: boolean;
  /** Throws SQL_IMPORT_UNSUPPORTED naming the construct. */
  fail(construct: string): never;
  /** The source text of a node. */
  text(node: Node | undefined): string;
  /** True when some table of the schema has a column of this name (any case). */
  isSchemaColumn(name: string): boolean;
  /** A name for a derived table written without an alias. */
  nextDerivedAlias(): string;
  /** The USING columns of the innermost SELECT being read. */
  usingColumns(): UsingColumns;
  /** Reads one SELECT's clauses with a USING scope of its own. */
  inSelect<R>(read: () => R): R;
  /** Runs one nested read, failing with PLAN_TOO_COMPLEX past the depth limit. */
  nested<R>(read: () => R): R;
  expr(node: Node): T.Expr;
  query(node: Node): T.Query;
  from(node: Node): T.From;
}

/** The parser's node of one `type`. */
export type NodeOfType<K extends Node['type']> = Extract<Node, { type: K }>;

/** Readers keyed by parser node type (those a clause understands; any other is refused). */
export type NodeReaders<R> = { readonly [K in Node['type']]?: (r: Reader, node: NodeOfType<K>) => R };

/** Reads `node` with the reader for its type, or fails naming it with `refuse`. */
export function readBy<R>(readers: NodeReaders<R>, r: Reader, node: Node, refuse: (node: Node) => string): R {
  const read = Object.hasOwn(readers, node.type)
    ? (readers[node.type] as (r: Reader, node: Node) => R)
    : undefined;
  return read ? read(r, node) : r.fail(refuse(node));
}

/** The keyword names of an operator (a symbol, one keyword or several), upper case. */
export function words(op: string | Node | readonly Node[]): string[] {
  const list = Array.isArray(op) ? (op as readonly Node[]) : [op as string | Node];
  return list.map((k) => (typeof k === 'string' ? k : k.type === 'keyword' ? k.name : k.type).toUpperCase());
}

export function isQuery(node: Node | undefined): boolean {
  return node?.type === 'select_stmt' || node?.type === 'compound_select_stmt';
}

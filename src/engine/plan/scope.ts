/**
 * Name resolution over a plan, shared by the validator (which reports what does not resolve) and
 * the compiler (which needs canonical spellings to keep meaning across engines). Without a schema,
 * tables have unknown columns and names pass through. What the relations in scope hold (their
 * columns and types) is worked out in inference.ts.
 *
 * Case rule: an exact match wins; otherwise a case-insensitive match that is unique. SQLite, MySQL
 * (on common platforms) and DuckDB compare identifiers case-insensitively, and PostgreSQL folds
 * unquoted names, so a plan written with another case still means the one object it names.
 */
import type { SchemaSnapshot, TableInfo } from '../datasources/schema';
import type { Expr, InferredType } from './types';

export interface RelColumn {
  readonly name: string;
  readonly kind: InferredType;
}

export interface Relation {
  /** The name a column reference uses for it (its alias, else its name). */
  readonly alias: string;
  /** The base table from the schema, when it is one. */
  readonly table: TableInfo | null;
  /** Columns in order; null when unknown (no schema, or a table the schema lacks). */
  readonly columns: readonly RelColumn[] | null;
  readonly source: 'table' | 'cte' | 'derived';
  /** The table or CTE name as the plan spelled it, resolved to its canonical spelling. */
  readonly name: string;
}

export function findByName<T>(items: readonly T[], name: string, nameOf: (t: T) => string): T | undefined {
  const exact = items.find((t) => nameOf(t) === name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  const matches = items.filter((t) => nameOf(t).toLowerCase() === lower);
  return matches.length === 1 ? matches[0] : undefined;
}

export interface CteDef {
  readonly name: string;
  readonly columns: readonly RelColumn[] | null;
}

export type ColumnResolution =
  | {
      readonly ok: true;
      readonly relation: Relation;
      readonly column: RelColumn | null;
      readonly depth: number;
    }
  | {
      readonly ok: false;
      readonly reason: 'unknown_table' | 'unknown_column' | 'ambiguous';
      readonly candidates: string[];
    };

/** The relations visible at one query level, chained to the enclosing level for correlation. */
export class Scope {
  constructor(
    readonly schema: SchemaSnapshot | null,
    readonly relations: readonly Relation[],
    readonly ctes: readonly CteDef[],
    readonly parent: Scope | null,
  ) {}

  static root(schema: SchemaSnapshot | null): Scope {
    return new Scope(schema, [], [], null);
  }

  findTable(name: string): TableInfo | undefined {
    return this.schema ? findByName(this.schema.tables, name, (t) => t.name) : undefined;
  }

  findCte(name: string): CteDef | undefined {
    return findByName(this.ctes, name, (c) => c.name) ?? this.parent?.findCte(name);
  }

  withCtes(ctes: readonly CteDef[]): Scope {
    return new Scope(this.schema, this.relations, [...ctes, ...this.ctes], this.parent);
  }

  /** A child scope for a nested query whose FROM gives `relations`. */
  child(relations: readonly Relation[]): Scope {
    return new Scope(this.schema, relations, [], this);
  }

  findRelation(name: string): Relation | undefined {
    return findByName(this.relations, name, (r) => r.alias);
  }

  resolveColumn(table: string | null, name: string, depth = 0): ColumnResolution {
    if (table !== null) {
      const rel = this.findRelation(table);
      if (!rel) {
        if (this.parent) return this.parent.resolveColumn(table, name, depth + 1);
        return { ok: false, reason: 'unknown_table', candidates: this.allRelationNames() };
      }
      if (rel.columns === null) return { ok: true, relation: rel, column: null, depth };
      const c = findByName(rel.columns, name, (x) => x.name);
      if (!c) return { ok: false, reason: 'unknown_column', candidates: rel.columns.map((x) => x.name) };
      return { ok: true, relation: rel, column: c, depth };
    }
    // Every column reference of a plan comes here, several times over: no arrays unless ambiguous.
    let found: { rel: Relation; col: RelColumn } | null = null;
    let ambiguous = false;
    let unknownColumns: Relation | null = null;
    for (const rel of this.relations) {
      if (rel.columns === null) {
        unknownColumns ??= rel;
        continue;
      }
      const c = findByName(rel.columns, name, (x) => x.name);
      if (!c) continue;
      if (found) ambiguous = true;
      else found = { rel, col: c };
    }
    if (ambiguous) {
      // A join's equality makes SQLite accept `USING`-like duplicates only when qualified.
      const candidates: string[] = [];
      for (const rel of this.relations) {
        const c = rel.columns && findByName(rel.columns, name, (x) => x.name);
        if (c) candidates.push(`${rel.alias}.${c.name}`);
      }
      return { ok: false, reason: 'ambiguous', candidates };
    }
    if (found) return { ok: true, relation: found.rel, column: found.col, depth };
    if (unknownColumns) return { ok: true, relation: unknownColumns, column: null, depth };
    if (this.parent) {
      const outer = this.parent.resolveColumn(null, name, depth + 1);
      if (outer.ok) return outer;
    }
    return { ok: false, reason: 'unknown_column', candidates: this.allColumnNames() };
  }

  allRelationNames(): string[] {
    const own = this.relations.map((r) => r.alias);
    return this.parent ? [...own, ...this.parent.allRelationNames()] : own;
  }

  allColumnNames(): string[] {
    const own = this.relations.flatMap((r) => (r.columns ?? []).map((c) => c.name));
    return this.parent ? [...own, ...this.parent.allColumnNames()] : own;
  }
}

/**
 * Equal keys for two references to the same column however qualified (`t.a`, `a`, `T.A`);
 * structural otherwise. GROUP BY matching and ORDER BY tie-breakers compare expressions by it.
 */
export function expressionKey(e: Expr, scope: Scope): string {
  if (e.kind === 'column') {
    const r = scope.resolveColumn(e.table, e.name);
    if (r.ok)
      return `col:${r.depth}:${r.relation.alias.toLowerCase()}.${(r.column?.name ?? e.name).toLowerCase()}`;
    return `col:?:${(e.table ?? '').toLowerCase()}.${e.name.toLowerCase()}`;
  }
  return JSON.stringify(e);
}

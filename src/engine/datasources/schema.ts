/**
 * The introspected shape of one datasource. The planner's prompt, the plan validator, the schema
 * index and `schema_version` all read this one snapshot.
 */
export type Dialect = 'duckdb' | 'sqlite' | 'postgres' | 'mysql';
export const DIALECTS: readonly Dialect[] = ['duckdb', 'sqlite', 'postgres', 'mysql'];

/** A column's type reduced to what decides meaning in a plan (comparisons, arithmetic, dates). */
export type TypeKind =
  | 'integer'
  | 'decimal'
  | 'float'
  | 'text'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'time'
  | 'blob'
  | 'json'
  | 'other';

export interface ColumnInfo {
  readonly name: string;
  /** The type as the database declares it, e.g. `character varying(40)`. */
  readonly type: string;
  readonly kind: TypeKind;
  readonly nullable: boolean;
  /** A few distinct non-null values, JSON-safe, for prompts and for the index. */
  readonly sampleValues: readonly (string | number | boolean)[];
  /** The database's own comment on the column (trimmed; absent when it has none). */
  readonly comment?: string;
}

export interface ForeignKey {
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
}

export interface TableInfo {
  /** Name as the database spells it (case preserved). */
  readonly name: string;
  /** Schema/namespace when the database has several (postgres `public`), else null. */
  readonly schema: string | null;
  readonly columns: readonly ColumnInfo[];
  readonly primaryKey: readonly string[];
  readonly foreignKeys: readonly ForeignKey[];
  /** An estimate (statistics where the database keeps them, else a count); null when unknown. */
  readonly rowCountEstimate: number | null;
  /**
   * The database's own comment on the table (PostgreSQL and DuckDB `COMMENT ON`, MySQL/MariaDB
   * `COMMENT=`; SQLite has none): trimmed, absent when it has none.
   */
  readonly comment?: string;
}

export interface SchemaSnapshot {
  readonly datasourceId: string;
  readonly dialect: Dialect;
  readonly tables: readonly TableInfo[];
  /** SHA-256 digest (hex, first 16 chars) of the snapshot without sample values and estimates (comments count). */
  readonly schemaVersion: string;
  readonly introspectedAt: string;
}

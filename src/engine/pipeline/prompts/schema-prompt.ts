/**
 * The schema as the planner sees it: compact, one table per block, with types, keys, foreign keys,
 * a few sample values and row estimates. Tables and columns a role may not read keep their names
 * (so the model can explain a refusal) but lose their sample values and statistics.
 */
import type { SchemaSnapshot, TableInfo } from '../../datasources/schema';
import { canReadColumn, canReadTable, type RolePolicies } from '../../policy/rbac';

export interface SchemaPromptOptions {
  readonly datasourceId: string;
  readonly policies: RolePolicies;
  readonly roles: readonly string[];
  /** Only these tables (retrieval on a large schema); all when null. */
  readonly tables?: ReadonlySet<string> | null;
  /** Only these columns per table (lower-cased `table.column`); all when null. */
  readonly columns?: ReadonlySet<string> | null;
  readonly preferredTables?: readonly string[];
  readonly samples?: number;
}

/**
 * Whole-schema prompts already rendered, per policies and snapshot (a new snapshot, after a
 * refresh, is a new key) and then per datasource, roles, preferred tables and sample count: a
 * small schema's prompt is the same text for every question of a role.
 */
const rendered = new WeakMap<object, WeakMap<SchemaSnapshot, Map<string, string>>>();
/** Stands for "no policies" as a WeakMap key. */
const NO_POLICIES = {};
const MAX_PER_SNAPSHOT = 64;

export function renderSchema(snapshot: SchemaSnapshot, opts: SchemaPromptOptions): string {
  if (opts.tables || opts.columns) return renderUncached(snapshot, opts);
  const policies = opts.policies ?? NO_POLICIES;
  let bySnapshot = rendered.get(policies);
  if (!bySnapshot) rendered.set(policies, (bySnapshot = new WeakMap()));
  let texts = bySnapshot.get(snapshot);
  if (!texts) bySnapshot.set(snapshot, (texts = new Map()));
  const key = JSON.stringify([opts.datasourceId, opts.roles, opts.preferredTables ?? [], opts.samples ?? 3]);
  let text = texts.get(key);
  if (text === undefined) {
    text = renderUncached(snapshot, opts);
    if (texts.size >= MAX_PER_SNAPSHOT) texts.clear();
    texts.set(key, text);
  }
  return text;
}

function renderUncached(snapshot: SchemaSnapshot, opts: SchemaPromptOptions): string {
  const samples = opts.samples ?? 3;
  const blocks: string[] = [];
  for (const t of snapshot.tables) {
    if (opts.tables && !opts.tables.has(t.name.toLowerCase())) continue;
    blocks.push(renderTable(t, opts, samples));
  }
  const preferred = opts.preferredTables?.length
    ? `\nPreferred tables when several fit: ${opts.preferredTables.join(', ')}.`
    : '';
  return `Dialect of the datasource: ${snapshot.dialect}.${preferred}\n\n${blocks.join('\n\n')}`;
}

function renderTable(t: TableInfo, opts: SchemaPromptOptions, samples: number): string {
  const readable = canReadTable(opts.policies, opts.roles, opts.datasourceId, t.name);
  const fkByColumn = new Map<string, string>();
  for (const fk of t.foreignKeys) {
    fk.columns.forEach((c, i) =>
      fkByColumn.set(c.toLowerCase(), `${fk.refTable}.${fk.refColumns[i] ?? '?'}`),
    );
  }
  const rows = readable && t.rowCountEstimate !== null ? ` (~${t.rowCountEstimate} rows)` : '';
  const denied = readable ? '' : ' [not readable by your role]';
  const lines = [`TABLE ${t.name}${rows}${denied}`];
  for (const c of t.columns) {
    if (
      opts.columns &&
      !opts.columns.has(`${t.name}.${c.name}`.toLowerCase()) &&
      !t.primaryKey.includes(c.name) &&
      !fkByColumn.has(c.name.toLowerCase())
    ) {
      continue;
    }
    const parts = [`  ${c.name} ${c.type || c.kind}`];
    if (t.primaryKey.includes(c.name)) parts.push('PK');
    const ref = fkByColumn.get(c.name.toLowerCase());
    if (ref) parts.push(`-> ${ref}`);
    if (!c.nullable) parts.push('NOT NULL');
    const colReadable =
      readable && canReadColumn(opts.policies, opts.roles, opts.datasourceId, t.name, c.name);
    if (!colReadable && readable) parts.push('[not readable by your role]');
    if (colReadable && c.sampleValues.length && samples > 0) {
      parts.push(
        `e.g. ${c.sampleValues
          .slice(0, samples)
          .map((v) => JSON.stringify(v))
          .join(', ')}`,
      );
    }
    lines.push(parts.join(' '));
  }
  return lines.join('\n');
}

/** Number of columns over which the planner gets retrieved tables instead of the whole schema. */
export const LARGE_SCHEMA_COLUMNS = 120;

export function isLargeSchema(snapshot: SchemaSnapshot): boolean {
  return snapshot.tables.reduce((n, t) => n + t.columns.length, 0) > LARGE_SCHEMA_COLUMNS;
}

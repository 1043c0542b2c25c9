/**
 * A plan with `param` nodes written as verified-query SQL: the datasource's dialect with `:name`
 * placeholders. The compiler's display statement inlines every value, so each parameter is given a
 * marker value no question holds, and the marker's literal becomes the placeholder. The result is
 * imported back and must give the same parameters, or there is no template (never a SQL text
 * whose placeholders could mean something else).
 */
import type { SchemaSnapshot } from '../../datasources/schema';
import { compilePlan, importSql, paramNames } from '../../plan';
import type * as T from '../../plan/types';
import type { ParamType } from '../param-values';

export function templateSql(
  plan: T.Query,
  params: Readonly<Record<string, { readonly type: ParamType }>>,
  snapshot: SchemaSnapshot,
): { sql: string; plan: T.Query } | null {
  const names = Object.keys(params);
  const markers = new Map<string, string>();
  const values: Record<string, string | number> = {};
  names.forEach((name, i) => {
    const numeric = params[name]!.type === 'integer' || params[name]!.type === 'number';
    // Numbers far outside any realistic value; strings no question would hold.
    const value = numeric ? 987_654_321_000 + i : `nl2sql_param_marker_${i}`;
    values[name] = value;
    markers.set(numeric ? String(value) : `'${value}'`, `:${name}`);
  });
  let sql: string;
  try {
    sql = compilePlan(plan, snapshot.dialect, { schema: snapshot, params: values }).displaySql;
  } catch {
    return null;
  }
  for (const [marker, placeholder] of markers) {
    if (!sql.includes(marker)) return null;
    sql = sql.split(marker).join(placeholder);
  }
  if (/nl2sql_param_marker_|98765432100\d/.test(sql)) return null;
  try {
    const imported = importSql(sql, snapshot.dialect, snapshot);
    const found = paramNames(imported);
    if (found.size !== names.length || names.some((n) => !found.has(n))) return null;
    return { sql, plan: imported };
  } catch {
    return null;
  }
}

/**
 * The schema part of a planner prompt for one question: the whole schema when it is small, else
 * the tables and columns the index links to the question plus their join paths; with the value
 * index live, the stored values the question names and each column's typical values. The planner
 * and the prompts bench both render through here, so the bench measures what models are sent.
 */
import type { SchemaSnapshot } from '../../datasources/schema';
import type { IndexService } from '../../index';
import type { RolePolicies } from '../../policy/rbac';
import { readableEvidence } from '../../policy/value-evidence';
import { isLargeSchema, renderSchema } from './schema-text';
import { valueHints } from './value-hints';

export interface PlannerSchemaInput {
  readonly question: string;
  readonly datasourceId: string;
  readonly snapshot: SchemaSnapshot;
  /** The live index, or null (no value hints, whole schema). */
  readonly index: IndexService | null;
  readonly policies: RolePolicies;
  readonly roles: readonly string[];
  readonly preferredTables?: readonly string[];
  /** False when the caller's roles let the model see no stored value (model_sees none): no samples, no matches. */
  readonly withValues?: boolean;
}

export async function plannerSchemaText(input: PlannerSchemaInput): Promise<string> {
  const { question, datasourceId, snapshot, index } = input;
  const evidence = readableEvidence(input.policies, input.roles);
  const withValues = input.withValues ?? true;
  const values =
    index && withValues
      ? valueHints(index.values(), question, datasourceId, snapshot, evidence.valueFilter?.accept)
      : null;
  const preferred = input.preferredTables ?? [];
  const base = {
    datasourceId,
    policies: input.policies,
    roles: input.roles,
    preferredTables: preferred,
    values: values?.hints.size ? values.hints : null,
    ...(withValues ? {} : { samples: 0 }),
  };
  if (!isLargeSchema(snapshot) || !index) return renderSchema(snapshot, base);
  const link = await index.linkSchema(question, datasourceId, {
    tables: 8,
    columns: 30,
    ...evidence,
  });
  if (!link.tables.length) return renderSchema(snapshot, base);
  const tables = new Set([
    ...link.tables.map((t) => t.table.toLowerCase()),
    ...preferred.map((t) => t.toLowerCase()),
  ]);
  const columns = new Set(link.columns.map((c) => `${c.table}.${c.column}`.toLowerCase()));
  // A column holding a value the question names is part of the answer, whatever its rank.
  for (const key of values?.matchedColumns ?? []) {
    columns.add(key);
    tables.add(key.slice(0, key.lastIndexOf('.')));
  }
  // A retrieved table shows all its columns when none of its columns was retrieved.
  for (const t of link.tables) {
    const key = t.table.toLowerCase();
    if (![...columns].some((c) => c.startsWith(`${key}.`))) {
      const info = snapshot.tables.find(
        (x) => x.name.toLowerCase() === key || `${x.schema}.${x.name}`.toLowerCase() === key,
      );
      info?.columns.forEach((c) => columns.add(`${info.name}.${c.name}`.toLowerCase()));
    }
  }
  return renderSchema(snapshot, { ...base, tables, columns });
}

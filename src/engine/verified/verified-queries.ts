/**
 * Verified queries: curated SELECTs with `:name` placeholders that answer a known question and its
 * paraphrases. Checked when the engine checks its datasources (one read-only SELECT, known tables
 * and columns, every placeholder declared and every declared parameter used). A question close
 * enough to one is answered by it: the model confirms the match and extracts the parameters as
 * structured output; the values are bound as parameters, never spliced into the SQL.
 */
import type { VerifiedQueryConfig } from '../../config/schema';
import type { ConfigProblem } from '../../config/config-error';
import type { SchemaSnapshot } from '../datasources/schema';
import { importSql, paramNames, validatePlan } from '../plan';
import type { Query } from '../plan/types';
import { terms } from '../index';

/** A parameter's value, typed as the verified query declares it. */
export type ParamValue = string | number | boolean | null;

export interface CheckedVerifiedQuery extends VerifiedQueryConfig {
  /** The SQL imported as a plan whose `param` nodes are the placeholders. */
  readonly plan: Query;
}

/** Share of the shorter text's content words found in the other (0..1). */
export function overlap(a: string, b: string): number {
  const ta = new Set(terms(a));
  const tb = new Set(terms(b));
  if (!ta.size || !tb.size) return 0;
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  return common / Math.min(ta.size, tb.size);
}

/** Lexical pre-selection; the model makes the final call, so this only has to be generous. */
export const MATCH_THRESHOLD = 0.6;

export class VerifiedQueries {
  private checked = new Map<string, CheckedVerifiedQuery>();

  constructor(private readonly configured: readonly VerifiedQueryConfig[]) {}

  /** Imports and validates each verified query of a datasource against its schema. */
  check(datasourceId: string, snapshot: SchemaSnapshot): ConfigProblem[] {
    const problems: ConfigProblem[] = [];
    this.configured.forEach((vq, i) => {
      if (vq.datasource_id !== datasourceId) return;
      const path = `verified_queries[${i}]`;
      let plan: Query;
      try {
        plan = importSql(vq.sql, snapshot.dialect, snapshot);
      } catch (err) {
        problems.push({
          path: `${path}.sql`,
          message: `not a single read-only SELECT the service can run: ${(err as Error).message}`,
        });
        return;
      }
      const result = validatePlan(plan, snapshot, { datasourceId, roles: [], rolePolicies: null });
      for (const p of result.problems)
        problems.push({ path: `${path}.sql`, message: `${p.message} (${p.code})` });
      const used = paramNames(plan);
      const declared = Object.keys(vq.params ?? {});
      for (const name of used)
        if (!declared.includes(name))
          problems.push({ path: `${path}.params`, message: `placeholder :${name} is not declared` });
      for (const name of declared)
        if (!used.has(name))
          problems.push({ path: `${path}.params.${name}`, message: `declared but the SQL has no :${name}` });
      if (!result.problems.length) this.checked.set(vq.id, { ...vq, plan });
    });
    return problems;
  }

  forDatasource(datasourceId: string): CheckedVerifiedQuery[] {
    return [...this.checked.values()].filter((v) => v.datasource_id === datasourceId);
  }

  /** A checked verified query by id (only those whose datasource was checked). */
  get(id: string): CheckedVerifiedQuery | undefined {
    return this.checked.get(id);
  }

  /** Every checked verified query, in configuration order. */
  all(): CheckedVerifiedQuery[] {
    return [...this.checked.values()];
  }

  /** The best lexical candidate among the given datasources, or null. */
  candidate(
    question: string,
    datasourceIds: readonly string[],
    /** Only queries the caller may run (policy/verified-visibility.ts) are candidates. */
    visible: (vq: CheckedVerifiedQuery) => boolean = () => true,
  ): { query: CheckedVerifiedQuery; score: number } | null {
    let best: { query: CheckedVerifiedQuery; score: number } | null = null;
    for (const vq of this.checked.values()) {
      if (!datasourceIds.includes(vq.datasource_id) || !visible(vq)) continue;
      const score = Math.max(...[vq.question, ...(vq.paraphrases ?? [])].map((q) => overlap(question, q)));
      if (score >= MATCH_THRESHOLD && (!best || score > best.score)) best = { query: vq, score };
    }
    return best;
  }
}

/**
 * What is wrong with values given for a verified query's parameters (none when they fit): every
 * declared parameter present with its declared type, nothing undeclared.
 */
export function paramProblems(vq: VerifiedQueryConfig, params: Record<string, unknown>): string[] {
  const declared = vq.params ?? {};
  const problems: string[] = [];
  for (const name of Object.keys(params)) {
    if (!(name in declared))
      problems.push(`unknown parameter '${name}' (declared: ${Object.keys(declared).join(', ') || 'none'})`);
  }
  for (const [name, p] of Object.entries(declared)) {
    const v = params[name];
    if (v === undefined || v === null) {
      problems.push(`parameter '${name}' (${p.type}) is missing`);
      continue;
    }
    const ok =
      p.type === 'string'
        ? typeof v === 'string'
        : p.type === 'integer'
          ? Number.isInteger(v)
          : p.type === 'number'
            ? typeof v === 'number' && Number.isFinite(v)
            : p.type === 'boolean'
              ? typeof v === 'boolean'
              : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
    if (!ok)
      problems.push(
        `parameter '${name}' must be ${p.type === 'date' ? 'a date (YYYY-MM-DD)' : `of type ${p.type}`}, got ${JSON.stringify(v)}`,
      );
  }
  return problems;
}

/**
 * The one check of a verified query against its datasource's schema, whoever wrote it: the config
 * file (at start-up, where a problem stops the service), an admin at runtime (POST
 * /api/v1/verified-queries, where a problem is a 422), an accepted suggestion, and every re-check
 * after the schema changed (drift.ts, where a problem disables the query). The SQL must import as
 * one read-only SELECT and validate against the schema; every placeholder must be declared and
 * every declared parameter used; an example value must fit its parameter's type.
 */
import type { ConfigProblem } from '../../config/config-error';
import type { VerifiedQueryConfig } from '../../config/schema';
import type { SchemaSnapshot } from '../datasources/schema';
import { importSql, paramNames, validatePlan } from '../plan';
import type { Query } from '../plan/types';
import { valueProblem } from './param-values';

export interface VerifiedCheck {
  /** The SQL imported as a plan; null when it does not import. */
  readonly plan: Query | null;
  /** Each problem with its path under `path` (e.g. `verified_queries[2].sql`). */
  readonly problems: ConfigProblem[];
}

export function checkVerifiedQuery(
  vq: VerifiedQueryConfig,
  snapshot: SchemaSnapshot,
  path: string,
): VerifiedCheck {
  let plan: Query;
  try {
    plan = importSql(vq.sql, snapshot.dialect, snapshot);
  } catch (err) {
    return {
      plan: null,
      problems: [
        {
          path: `${path}.sql`,
          message: `not a single read-only SELECT the service can run: ${(err as Error).message}`,
        },
      ],
    };
  }
  const problems: ConfigProblem[] = [];
  const result = validatePlan(plan, snapshot, {
    datasourceId: vq.datasource_id,
    roles: [],
    rolePolicies: null,
  });
  for (const p of result.problems)
    problems.push({ path: `${path}.sql`, message: `${p.message} (${p.code})` });
  const used = paramNames(plan);
  const declared = vq.params ?? {};
  for (const name of used)
    if (!(name in declared))
      problems.push({ path: `${path}.params`, message: `placeholder :${name} is not declared` });
  for (const [name, p] of Object.entries(declared)) {
    if (!used.has(name))
      problems.push({ path: `${path}.params.${name}`, message: `declared but the SQL has no :${name}` });
    const wrong = p.example === undefined ? null : valueProblem(p.type, p.example);
    if (wrong) problems.push({ path: `${path}.params.${name}.example`, message: wrong });
  }
  return { plan, problems };
}

/**
 * Which datasources stay candidates after the index ranked them: the best one, and any other
 * whose score comes close to it. A clear winner is the only candidate, so a one-intent question
 * skips the decomposer (one model call fewer); a close call keeps the runners-up for it to choose.
 */
import type { RankedDatasource } from '../../index';

/** A datasource scoring at least this share of the best one stays a candidate. */
export const CANDIDATE_SHARE = 0.8;

export function routingCandidates(ranked: readonly RankedDatasource[]): string[] {
  const top = ranked[0];
  if (!top) return [];
  if (top.score <= 0) return ranked.map((r) => r.datasourceId);
  return ranked.filter((r) => r.score >= top.score * CANDIDATE_SHARE).map((r) => r.datasourceId);
}

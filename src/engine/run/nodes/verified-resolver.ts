/**
 * Step `verified_resolver`: when a curated verified query answers the sub-query, its own plan
 * (imported from its SQL, placeholders as `param` nodes) is compiled with the parameter values
 * bound. A question close enough to the verified question, whose parameters can be read from it
 * without a model (verified/direct-path.ts), is answered with no model call; otherwise the model
 * confirms the match and extracts the values (structured output).
 */
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { SchemaIndex } from '../../index';
import { verifiedVisibleTo } from '../../policy/verified-visibility';
import { AGENTS } from '../agents';
import type { SubQueryNode } from '../node';
import type { RunContext } from '../run-context';
import type { SubQueryAttempt, SubQueryState } from '../run-state';
import { directMatch } from '../../verified/direct-path';
import { VerifiedQueries, type CheckedVerifiedQuery, type ParamValue } from '../../verified/verified-queries';
import {
  VERIFIED_MATCH_SYSTEM,
  VERIFIED_MATCH_TOOL,
  verifiedMatchSchema,
  verifiedMatchUserMessage,
  type VerifiedMatchAnswer,
} from '../prompts/verified-match';

@Injectable()
export class VerifiedResolver implements SubQueryNode {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly verified: VerifiedQueries,
    private readonly index: SchemaIndex,
  ) {}

  /** Only on a sub-query's first attempt (a retry is the planner's), and not when the run opts out. */
  applies(attempt: SubQueryAttempt): boolean {
    return attempt.previous === null && attempt.run.request.useVerified !== false;
  }

  /** Sets the plan and parameter values when a verified query answers; else the planner takes over. */
  async run(attempt: SubQueryAttempt, ctx: RunContext): Promise<void> {
    const { sq } = attempt;
    const requested = attempt.run.request.verified;
    const chosen = requested ? this.verified.get(requested.id) : undefined;
    if (requested && chosen) {
      this.accept(sq, chosen, requested.params, true);
      ctx.reasoning.push({
        node: 'verified_resolver',
        sub_query_id: sq.id,
        candidate: chosen.id,
        method: 'requested',
      });
      return;
    }
    // A query the caller's roles may not run is no candidate (nor named in the reasoning).
    const visible = verifiedVisibleTo(
      attempt.run.request.caller.roles,
      this.config.policies.roles,
      () => sq.snapshot,
    );
    const hit = this.verified.candidate(sq.intent, [sq.datasourceId], visible);
    if (!hit) return;
    const vq = hit.query;
    const direct = await directMatch(
      vq,
      sq.intent,
      sq,
      this.index,
      this.config.settings.pipeline.verified_direct_threshold,
    );
    if (direct) {
      this.accept(sq, vq, direct.params, true);
      ctx.reasoning.push({
        node: 'verified_resolver',
        sub_query_id: sq.id,
        candidate: vq.id,
        matched: true,
        method: 'direct',
        similarity: round(direct.similarity),
      });
      return;
    }
    const declared = Object.keys(vq.params ?? {});
    const answer = await ctx.models.structured<VerifiedMatchAnswer>(
      AGENTS.verified,
      'verified_resolver',
      VERIFIED_MATCH_SYSTEM,
      [{ role: 'user', content: verifiedMatchUserMessage(vq, sq.intent) }],
      verifiedMatchSchema(vq),
      VERIFIED_MATCH_TOOL,
    );
    const params = answer.params ?? {};
    if (!answer.matches || declared.some((n) => params[n] === null || params[n] === undefined)) {
      ctx.reasoning.push({
        node: 'verified_resolver',
        sub_query_id: sq.id,
        candidate: vq.id,
        matched: false,
      });
      return;
    }
    this.accept(sq, vq, params, false);
    ctx.reasoning.push({
      node: 'verified_resolver',
      sub_query_id: sq.id,
      candidate: vq.id,
      matched: true,
      method: 'model',
      score: hit.score,
    });
  }

  private accept(
    sq: SubQueryState,
    vq: CheckedVerifiedQuery,
    params: Record<string, ParamValue>,
    direct: boolean,
  ): void {
    sq.verified = { id: vq.id, datasourceId: vq.datasource_id, sql: vq.sql, params, direct };
    sq.verifiedParams = params;
    sq.plan = vq.plan;
    sq.planSource = 'verified';
    sq.validation = [
      {
        name: 'verified_query',
        passed: true,
        message: `answered by verified query '${vq.id}'${direct ? ' (no model call)' : ''}`,
      },
    ];
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * Step `verified_resolver`: when a curated verified query answers the sub-query, its own plan
 * (imported from its SQL, placeholders as `param` nodes) is compiled with the parameter values
 * bound. A question close enough to the verified question, whose parameters can be read from it
 * without a model (verified-direct.ts), is answered with no model call; otherwise the model
 * confirms the match and extracts the values (structured output).
 */
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { SchemaIndex } from '../../index/schema-index';
import { verifiedVisibleTo } from '../../policy/verified-visibility';
import { AGENTS } from '../agents';
import type { SubQueryNode } from '../node';
import type { RunContext } from '../run-context';
import type { ParamValue, SubQueryAttempt, SubQueryState } from '../run-state';
import { combinedLookup, fillParams, maskValues, snapshotLookup, valueIndexLookup } from '../verified-direct';
import { VerifiedQueries, type CheckedVerifiedQuery } from '../verified-queries';

@Injectable()
export class VerifiedResolver implements SubQueryNode {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly verified: VerifiedQueries,
    private readonly index: SchemaIndex,
  ) {}

  /** Only on a sub-query's first attempt: a retry is the planner's. */
  applies(attempt: SubQueryAttempt): boolean {
    return attempt.previous === null;
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
    const direct = await this.direct(vq, sq);
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
    const declared = Object.entries(vq.params ?? {});
    const answer = await ctx.models.structured<{ matches: boolean; params: Record<string, ParamValue> }>(
      AGENTS.verified,
      'verified_resolver',
      'You decide whether a question asks exactly what a verified question asks, and extract its parameter values ' +
        'as they would be stored in the database. Use null for a parameter the question does not give.',
      [
        {
          role: 'user',
          content:
            `Verified question: ${vq.question}\n` +
            (vq.paraphrases?.length ? `Also asked as: ${vq.paraphrases.join(' | ')}\n` : '') +
            (declared.length
              ? `Parameters:\n${declared.map(([n, p]) => `- ${n} (${p.type}): ${p.description ?? ''}`).join('\n')}\n`
              : '') +
            `\nQuestion: ${sq.intent}`,
        },
      ],
      this.verified.matchSchema(vq),
      'match_verified_query',
    );
    const params = answer.params ?? {};
    if (!answer.matches || declared.some(([n]) => params[n] === null || params[n] === undefined)) {
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

  /**
   * The parameters and similarity when the question may be answered with no model call: every
   * parameter filled from the question, and the question (values masked) at least
   * `settings.pipeline.verified_direct_threshold` similar to the verified question or a paraphrase.
   */
  private async direct(
    vq: CheckedVerifiedQuery,
    sq: SubQueryState,
  ): Promise<{ params: Record<string, ParamValue>; similarity: number } | null> {
    const threshold = this.config.settings.pipeline.verified_direct_threshold;
    if (threshold === null) return null;
    // The value index, when built, knows every stored value of the column, not only the sampled few.
    const values = this.index.live()?.values();
    const lookup = values
      ? combinedLookup(snapshotLookup(sq.snapshot), valueIndexLookup(values, sq.datasourceId))
      : snapshotLookup(sq.snapshot);
    const params = await fillParams(vq, sq.intent, lookup);
    if (!params) return null;
    const question = await maskValues(sq.intent, vq, lookup);
    const known = await Promise.all(
      [vq.question, ...(vq.paraphrases ?? [])].map((t) => maskValues(t, vq, lookup)),
    );
    const similarity = await this.index.similarity(question, known);
    return similarity !== null && similarity >= threshold ? { params, similarity } : null;
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

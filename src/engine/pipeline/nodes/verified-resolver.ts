/**
 * Step `verified_resolver`: when a curated verified query answers the sub-query, the model only
 * confirms the match and extracts the parameter values (structured output); the query's own plan
 * (imported from its SQL, placeholders as `param` nodes) is compiled with those values bound.
 */
import { Injectable } from '@nestjs/common';
import { VerifiedQueries } from '../verified-queries';
import { AGENTS } from '../agents';
import type { RunContext } from '../run-context';
import type { ParamValue, SubQueryAttempt } from '../run-state';
import type { SubQueryNode } from '../node';

@Injectable()
export class VerifiedResolver implements SubQueryNode {
  constructor(private readonly verified: VerifiedQueries) {}

  /** Only on a sub-query's first attempt: a retry is the planner's. */
  applies(attempt: SubQueryAttempt): boolean {
    return attempt.previous === null;
  }

  /** Sets the plan and parameter values when a verified query answers; else the planner takes over. */
  async run(attempt: SubQueryAttempt, ctx: RunContext): Promise<void> {
    const { sq } = attempt;
    const hit = this.verified.candidate(sq.intent, [sq.datasourceId]);
    if (!hit) return;
    const vq = hit.query;
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
    sq.verified = { id: vq.id, datasourceId: vq.datasource_id, sql: vq.sql, params };
    sq.plan = vq.plan;
    sq.planSource = 'verified';
    sq.validation = [
      { name: 'verified_query', passed: true, message: `answered by verified query '${vq.id}'` },
    ];
    ctx.reasoning.push({
      node: 'verified_resolver',
      sub_query_id: sq.id,
      candidate: vq.id,
      matched: true,
      score: hit.score,
    });
    sq.verifiedParams = params;
  }
}

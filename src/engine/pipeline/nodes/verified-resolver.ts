/**
 * Step `verified_resolver`: when a curated verified query answers the sub-query, the model only
 * confirms the match and extracts the parameter values (structured output); the query's own plan
 * (imported from its SQL, placeholders as `param` nodes) is compiled with those values bound.
 */
import { Injectable } from '@nestjs/common';
import { AGENTS, type PipelineDeps } from '../deps';
import type { RunContext } from '../run-context';
import type { RunState, SubQueryState } from '../run-state';

type ParamValue = string | number | boolean | null;

@Injectable()
export class VerifiedResolver {
  constructor(private readonly deps: PipelineDeps) {}

  /** The parameter values when a verified query answers, else null (the planner takes over). */
  async run(sq: SubQueryState, state: RunState, ctx: RunContext): Promise<Record<string, ParamValue> | null> {
    const hit = this.deps.verified.candidate(sq.intent, [sq.datasourceId]);
    if (!hit) return null;
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
      this.deps.verified.matchSchema(vq),
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
      return null;
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
    return params;
  }
}

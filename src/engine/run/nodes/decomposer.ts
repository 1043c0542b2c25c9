/**
 * Step `decomposer`: splits a question into sub-queries, each with its intent and datasource.
 * A simple question stays one sub-query. The model only chooses among the resolver's candidates,
 * and is asked only when it has something to decide (settings.pipeline.decompose `auto`): with one
 * candidate datasource and no sign of several intents the question is one sub-query as it stands.
 * Each candidate is described with its knowledge (instructions and the glossary terms the
 * question names first), the candidates sharing one knowledge budget.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { DatasourceRegistry } from '../../datasources/registry';
import { LRUCache } from 'lru-cache';
import { AGENTS } from '../agents';
import type { RunContext } from '../run-context';
import { newSubQuery, type RunState } from '../run-state';
import { mayHaveSeveralIntents } from './intents';
import { KNOWLEDGE_TOKENS, knowledgeText } from '../prompts/knowledge';
import type { RunNode } from '../node';
import {
  DECOMPOSE_TOOL,
  decomposerPrompt,
  decompositionSchema,
  describeCandidates,
  type Decomposition,
} from '../prompts/decomposer';

@Injectable()
export class Decomposer implements RunNode {
  /**
   * One schema object per candidate list: structured output caches its compiled validator by
   * schema object, so an equal list must give the same object, not a new one to compile.
   */
  private readonly schemas = new LRUCache<string, ReturnType<typeof decompositionSchema>>({ max: 256 });

  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly datasources: DatasourceRegistry,
  ) {}

  private schemaOf(candidates: string[]): ReturnType<typeof decompositionSchema> {
    const key = JSON.stringify(candidates);
    let schema = this.schemas.get(key);
    if (!schema) {
      schema = decompositionSchema(candidates);
      this.schemas.set(key, schema);
    }
    return schema;
  }

  async run(state: RunState, ctx: RunContext): Promise<void> {
    const candidates = state.candidateDatasources.slice(0, 3);
    const max = this.config.settings.pipeline.max_sub_queries;
    // A verified query asked for by id is one query by definition.
    const ask =
      !state.request.verified &&
      (this.config.settings.pipeline.decompose === 'always' ||
        candidates.length > 1 ||
        mayHaveSeveralIntents(state.request.question));
    if (!ask) {
      state.subQueries = [newSubQuery('sq1', state.request.question, candidates[0] ?? '')];
      ctx.reasoning.push({
        node: 'decomposer',
        decision: 'single',
        reason: 'one candidate datasource and no sign of several intents: no model call',
      });
      return;
    }
    const share = Math.floor(KNOWLEDGE_TOKENS / Math.max(1, candidates.length));
    const described = describeCandidates(
      candidates.map((id) => {
        const config = this.datasources.get(id)?.config;
        return {
          id,
          description: config?.description,
          knowledge: config ? knowledgeText(config, state.request.question, config.type, share) : '',
        };
      }),
    );
    const prompt = decomposerPrompt(state.request.question, described, max);
    const answer = await ctx.models.structured<Decomposition>(
      AGENTS.decomposer,
      'decomposer',
      prompt.system,
      [{ role: 'user', content: prompt.user }],
      this.schemaOf(candidates),
      DECOMPOSE_TOOL,
    );
    const items = answer.sub_queries.filter((s) => s.intent.trim()).slice(0, max);
    if (!items.length) items.push({ intent: state.request.question, datasource_id: candidates[0] ?? '' });
    state.subQueries = items.map((s, i) =>
      newSubQuery(
        `sq${i + 1}`,
        s.intent.trim(),
        candidates.includes(s.datasource_id) ? s.datasource_id : (candidates[0] ?? ''),
      ),
    );
    if (state.subQueries.length > 1)
      ctx.reasoning.push({ node: 'decomposer', sub_queries: state.subQueries.map((s) => s.intent) });
  }
}

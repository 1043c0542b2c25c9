/**
 * Step `datasource_resolver`: which datasource(s) can answer. An explicit `datasource_id` wins;
 * otherwise the schema index ranks them when it exists, and the model picks from descriptions and
 * sample questions when it does not. Only datasources the caller's roles may read are candidates.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { DatasourceRegistry } from '../../datasources/registry';
import { SchemaIndex } from '../../index';
import { RefusalError } from '../../errors';
import { canReadDatasource } from '../../policy/rbac';
import { AGENTS } from '../agents';
import { routingCandidates } from './routing';
import {
  ROUTE_SCHEMA,
  ROUTE_TOOL,
  ROUTER_SYSTEM,
  routerUserMessage,
  type RouteAnswer,
} from '../prompts/router';
import type { EvidenceOptions } from '../../index';
import { readableEvidence } from '../../policy/value-evidence';
import type { RunContext } from '../run-context';
import type { RunState } from '../run-state';
import type { RunNode } from '../node';

@Injectable()
export class DatasourceResolver implements RunNode {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly datasources: DatasourceRegistry,
    private readonly index: SchemaIndex,
  ) {}

  async run(state: RunState, ctx: RunContext): Promise<void> {
    const { request } = state;
    const policies = this.config.policies.roles;
    const roles = request.caller.roles;
    if (request.datasourceId) {
      const entry = this.datasources.get(request.datasourceId);
      if (!entry) {
        throw new RefusalError(
          'DATASOURCE_NOT_FOUND',
          `unknown datasource '${request.datasourceId}' (known: ${this.datasources.ids().join(', ')})`,
        );
      }
      if (!canReadDatasource(policies, roles, entry.config.id)) {
        ctx.operator.emit(
          'policy.denied',
          { datasource_id: entry.config.id, roles, rule: 'datasources' },
          ctx.traceId,
        );
        throw new RefusalError('DATASOURCE_DENIED', `your role may not read datasource '${entry.config.id}'`);
      }
      state.candidateDatasources = [entry.config.id];
      return;
    }
    const allowed = this.datasources
      .all()
      .filter((e) => e.status !== 'failed' && canReadDatasource(policies, roles, e.config.id))
      .map((e) => e.config.id);
    if (!allowed.length) {
      ctx.operator.emit('policy.denied', { roles, rule: 'datasources', datasource_id: null }, ctx.traceId);
      throw new RefusalError('NO_DATASOURCE_AVAILABLE', 'no datasource that your role may read is available');
    }
    if (allowed.length === 1) {
      state.candidateDatasources = allowed;
      return;
    }
    const ranked = await this.rankWithIndex(request.question, allowed, readableEvidence(policies, roles));
    if (ranked) {
      state.candidateDatasources = ranked;
      ctx.reasoning.push({ node: 'datasource_resolver', method: 'index', ranking: ranked.slice(0, 3) });
      return;
    }
    state.candidateDatasources = [await this.askModel(request.question, allowed, ctx)];
  }

  private async rankWithIndex(
    question: string,
    allowed: string[],
    evidence: EvidenceOptions,
  ): Promise<string[] | null> {
    const index = this.index.live();
    if (!index) return null;
    const ranked = (await index.rankDatasources(question, evidence)).filter((r) =>
      allowed.includes(r.datasourceId),
    );
    // Only when the index covers every candidate: a datasource missing from it would never win.
    if (new Set(ranked.map((r) => r.datasourceId)).size < allowed.length) return null;
    return routingCandidates(ranked);
  }

  private async askModel(question: string, allowed: string[], ctx: RunContext): Promise<string> {
    const candidates = allowed.map((id) => {
      const cfg = this.datasources.require(id).config;
      return { id, description: cfg.description, sampleQuestions: cfg.sample_questions };
    });
    const answer = await ctx.models.structured<RouteAnswer>(
      AGENTS.router,
      'datasource_resolver',
      ROUTER_SYSTEM,
      [{ role: 'user', content: routerUserMessage(question, candidates) }],
      ROUTE_SCHEMA,
      ROUTE_TOOL,
    );
    ctx.reasoning.push({ node: 'datasource_resolver', method: 'model', reason: answer.reason });
    if (!answer.datasource_id || !allowed.includes(answer.datasource_id)) {
      throw new RefusalError(
        'QUESTION_UNANSWERABLE',
        `no datasource can answer this question: ${answer.reason}`,
      );
    }
    return answer.datasource_id;
  }
}

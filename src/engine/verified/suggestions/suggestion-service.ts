/**
 * GET /api/v1/verified-queries/suggestions: the suggestions of suggestions.ts over what the engine
 * holds now (every stored rating, the plan cache, each datasource's current schema, the verified
 * queries that exist).
 */
import { Injectable } from '@nestjs/common';
import { DatasourceRegistry } from '../../datasources/registry';
import { FeedbackService } from '../../feedback/feedback-service';
import { PlanCache } from '../../run/plan-cache';
import { VerifiedQueries } from '../verified-queries';
import { buildSuggestions, MIN_CACHE_HITS, type Suggestion } from './suggestions';

@Injectable()
export class VerifiedSuggestions {
  constructor(
    private readonly feedback: FeedbackService,
    private readonly planCache: PlanCache,
    private readonly datasources: DatasourceRegistry,
    private readonly verified: VerifiedQueries,
  ) {}

  async list(): Promise<Suggestion[]> {
    return buildSuggestions({
      feedback: await this.feedback.list(),
      served: this.planCache.served(MIN_CACHE_HITS).map((s) => ({
        question: s.key.intent,
        datasourceId: s.key.datasourceId,
        plan: s.plan,
        hits: s.hits,
      })),
      snapshotOf: (id) => this.datasources.get(id)?.snapshot,
      existing: this.verified.all(),
      takenIds: new Set(this.verified.list().map((e) => e.definition.id)),
    });
  }
}

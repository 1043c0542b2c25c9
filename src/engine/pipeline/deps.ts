/**
 * What the pipeline's nodes are built from. Each part stays behind its own small interface so a
 * test or a later backend (shared index, Redis plan cache, object-store results) can replace it.
 */
import type { AppConfig } from '../../config/defaults';
import type { IndexService } from '../index';
import type { DatasourceRegistry } from '../registry/datasource-registry';
import type { PlanCache } from './plan-cache';
import type { ResultStore } from '../storage/result-store';
import type { VerifiedQueries } from './verified-queries';
import type { HookRunner } from '../policy/hooks';

export interface PipelineDeps {
  readonly config: AppConfig;
  readonly datasources: DatasourceRegistry;
  /** The schema index, when one has been built; routing falls back to the model without it. */
  readonly index: IndexService | null;
  readonly planCache: PlanCache;
  readonly verified: VerifiedQueries;
  readonly results: ResultStore;
  readonly hooks: HookRunner;
}

/** Agent names per step; a missing agent falls back to `default` (spec 4.11). */
export const AGENTS = {
  router: 'datasource_resolver',
  decomposer: 'decomposer',
  planner: 'ast_planner',
  verified: 'verified_resolver',
  answer: 'answer_synthesizer',
} as const;

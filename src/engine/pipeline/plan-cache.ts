/**
 * Plans that validated and executed, keyed exactly on (normalised intent, datasource,
 * schema_version, role scope). A hit skips the planner's model call; the plan is still validated
 * again, compiled and executed. In memory (LRU) here; the interface lets a shared store replace it.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Query } from '../plan/types';

export interface PlanCacheKey {
  readonly intent: string;
  readonly datasourceId: string;
  readonly schemaVersion: string;
  readonly roleScope: string;
}

export abstract class PlanCache {
  abstract get(key: PlanCacheKey): Query | undefined;
  abstract set(key: PlanCacheKey, plan: Query): void;
  abstract clear(): void;
}

/** Case, spacing and trailing punctuation do not change what a question asks. */
export function normaliseIntent(intent: string): string {
  return intent
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?.!]+$/u, '')
    .trim();
}

export function planCacheKey(key: PlanCacheKey): string {
  return createHash('sha256')
    .update([normaliseIntent(key.intent), key.datasourceId, key.schemaVersion, key.roleScope].join('\u0000'))
    .digest('hex');
}

export class MemoryPlanCache implements PlanCache {
  private readonly lru: LRUCache<string, Query> | null;

  constructor(size: number) {
    this.lru = size > 0 ? new LRUCache<string, Query>({ max: size }) : null;
  }

  get(key: PlanCacheKey): Query | undefined {
    return this.lru?.get(planCacheKey(key));
  }

  set(key: PlanCacheKey, plan: Query): void {
    this.lru?.set(planCacheKey(key), plan);
  }

  clear(): void {
    this.lru?.clear();
  }
}

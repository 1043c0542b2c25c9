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

/** A question and the plan that answered it, for the planner's similar examples. */
export interface CachedPair {
  readonly question: string;
  readonly plan: Query;
}

/** A cached plan with the times the cache served it (its hits), for verified-query suggestions. */
export interface ServedPlan {
  readonly key: PlanCacheKey;
  readonly plan: Query;
  readonly hits: number;
}

export abstract class PlanCache {
  abstract get(key: PlanCacheKey): Query | undefined;
  abstract set(key: PlanCacheKey, plan: Query): void;
  /**
   * The cached question->plan pairs of one datasource, schema version and role scope, most recent
   * first: only plans of the caller's own scope, so no example carries a value another role saw.
   */
  abstract pairs(scope: Omit<PlanCacheKey, 'intent'>, max: number): CachedPair[];
  /** The cached plans served at least `minHits` times, most recently used first. */
  abstract served(minHits: number): ServedPlan[];
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

interface Cached {
  readonly key: PlanCacheKey;
  readonly plan: Query;
  hits: number;
}

export class MemoryPlanCache implements PlanCache {
  private readonly lru: LRUCache<string, Cached> | null;

  constructor(size: number) {
    this.lru = size > 0 ? new LRUCache<string, Cached>({ max: size }) : null;
  }

  get(key: PlanCacheKey): Query | undefined {
    const cached = this.lru?.get(planCacheKey(key));
    if (cached) cached.hits++;
    return cached?.plan;
  }

  set(key: PlanCacheKey, plan: Query): void {
    this.lru?.set(planCacheKey(key), { key, plan, hits: 0 });
  }

  served(minHits: number): ServedPlan[] {
    const out: ServedPlan[] = [];
    for (const { key, plan, hits } of this.lru?.values() ?? [])
      if (hits >= minHits) out.push({ key, plan, hits });
    return out;
  }

  pairs(scope: Omit<PlanCacheKey, 'intent'>, max: number): CachedPair[] {
    const out: CachedPair[] = [];
    if (!this.lru) return out;
    // values() runs most recently used first and does not touch recency.
    for (const { key, plan } of this.lru.values()) {
      if (
        key.datasourceId !== scope.datasourceId ||
        key.schemaVersion !== scope.schemaVersion ||
        key.roleScope !== scope.roleScope
      )
        continue;
      out.push({ question: key.intent, plan });
      if (out.length >= max) break;
    }
    return out;
  }

  clear(): void {
    this.lru?.clear();
  }
}

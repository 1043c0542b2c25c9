/**
 * Verified queries: curated SELECTs with `:name` placeholders that answer a known question and its
 * paraphrases. The catalog holds the configured ones (read-only) and those added at runtime
 * (verified-admin.ts, persisted by a VerifiedQueryStore), each with its status: `enabled` once its
 * check (check.ts) passed against its datasource's current schema, `disabled` with the reason when
 * it no longer does (drift.ts re-checks on every schema change), `unchecked` until its datasource
 * has a schema. Every path that serves a verified query (the no-model match, the model-confirmed
 * match, planner examples, MCP's list and run, run by id) reads only enabled ones through `get`,
 * `all`, `forDatasource` and `candidate`. The values are bound as parameters, never spliced into
 * the SQL.
 */
import type { ConfigProblem } from '../../config/config-error';
import type { VerifiedQueryConfig } from '../../config/schema';
import type { SchemaSnapshot } from '../datasources/schema';
import { EngineError, NotFoundError } from '../errors';
import type { Query } from '../plan/types';
import { terms } from '../index';
import { checkVerifiedQuery } from './check';

export { paramProblems } from './param-values';

/** A parameter's value, typed as the verified query declares it. */
export type ParamValue = string | number | boolean | null;

export interface CheckedVerifiedQuery extends VerifiedQueryConfig {
  /** The SQL imported as a plan whose `param` nodes are the placeholders. */
  readonly plan: Query;
}

export type VerifiedOrigin = 'config' | 'runtime';
export type VerifiedStatus = 'enabled' | 'disabled' | 'unchecked';

/** Who added a runtime verified query, and when. */
export interface VerifiedProvenance {
  readonly created_at: string;
  readonly roles: readonly string[];
  readonly user_id: string | null;
}

export interface VerifiedEntry {
  readonly definition: VerifiedQueryConfig;
  readonly origin: VerifiedOrigin;
  /** Where its problems point: `verified_queries[i]` (configured) or `verified_query` (runtime). */
  readonly path: string;
  readonly provenance: VerifiedProvenance | null;
  status: VerifiedStatus;
  /** Why it is disabled (its problems on one line); null when it is not. */
  reason: string | null;
  problems: ConfigProblem[];
  /** Its plan, when enabled. */
  checked: CheckedVerifiedQuery | null;
  /** The schema_version of its last check. */
  schemaVersion: string | null;
}

/** A status a re-check changed. */
export interface StatusChange {
  readonly id: string;
  readonly datasource_id: string;
  readonly origin: VerifiedOrigin;
  readonly previous: VerifiedStatus;
  readonly status: 'enabled' | 'disabled';
  readonly reason: string | null;
}

/** A verified query that does not pass its check (a 422 naming each problem). */
export class VerifiedQueryInvalidError extends EngineError {
  constructor(
    id: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    super(
      'VERIFIED_QUERY_INVALID',
      `verified query '${id}' does not pass its check: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      { problems },
    );
  }
}

/** Share of the shorter text's content words found in the other (0..1). */
export function overlap(a: string, b: string): number {
  const ta = new Set(terms(a));
  const tb = new Set(terms(b));
  if (!ta.size || !tb.size) return 0;
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  return common / Math.min(ta.size, tb.size);
}

/** Lexical pre-selection; the model makes the final call, so this only has to be generous. */
export const MATCH_THRESHOLD = 0.6;

export class VerifiedQueries {
  /** Configured entries first, in configuration order, then runtime ones as they were added. */
  private readonly entries = new Map<string, VerifiedEntry>();

  constructor(configured: readonly VerifiedQueryConfig[]) {
    configured.forEach((definition, i) =>
      this.entries.set(definition.id, newEntry(definition, 'config', `verified_queries[${i}]`, null)),
    );
  }

  /**
   * Checks every verified query of a datasource that was not yet checked against this schema
   * version; returns the problems of the configured ones (start-up stops on them).
   */
  check(datasourceId: string, snapshot: SchemaSnapshot): ConfigProblem[] {
    this.recheck(datasourceId, snapshot);
    return this.list()
      .filter((e) => e.origin === 'config' && e.definition.datasource_id === datasourceId)
      .flatMap((e) => e.problems);
  }

  /**
   * Checks each verified query of the datasource whose last check was of another schema version:
   * one that fails is disabled with the reason, one that passes is enabled. Returns what changed.
   */
  recheck(datasourceId: string, snapshot: SchemaSnapshot): StatusChange[] {
    const changes: StatusChange[] = [];
    for (const entry of this.entries.values()) {
      if (entry.definition.datasource_id !== datasourceId) continue;
      if (entry.status !== 'unchecked' && entry.schemaVersion === snapshot.schemaVersion) continue;
      const previous = entry.status;
      applyCheck(entry, snapshot);
      if (entry.status !== previous)
        changes.push({
          id: entry.definition.id,
          datasource_id: datasourceId,
          origin: entry.origin,
          previous,
          status: entry.status as 'enabled' | 'disabled',
          reason: entry.reason,
        });
    }
    return changes;
  }

  /**
   * Adds a verified query at runtime, checked against `snapshot` exactly like a configured one.
   * Throws VERIFIED_QUERY_EXISTS for a taken id, VERIFIED_QUERY_INVALID naming every problem.
   */
  addRuntime(
    definition: VerifiedQueryConfig,
    snapshot: SchemaSnapshot,
    provenance: VerifiedProvenance,
  ): VerifiedEntry {
    this.assertFree(definition.id);
    const entry = newEntry(definition, 'runtime', 'verified_query', provenance);
    applyCheck(entry, snapshot);
    if (entry.status !== 'enabled') throw new VerifiedQueryInvalidError(definition.id, entry.problems);
    this.entries.set(definition.id, entry);
    return entry;
  }

  /**
   * A runtime verified query read back from storage, unchecked until its datasource's schema is
   * known. False (and nothing added) when a configured one has taken its id since.
   */
  restore(definition: VerifiedQueryConfig, provenance: VerifiedProvenance): boolean {
    if (this.entries.has(definition.id)) return false;
    this.entries.set(definition.id, newEntry(definition, 'runtime', 'verified_query', provenance));
    return true;
  }

  /** The runtime verified query `id`: NOT_FOUND for an unknown id, VERIFIED_QUERY_READ_ONLY for a configured one. */
  removable(id: string): VerifiedEntry {
    const entry = this.entries.get(id);
    if (!entry) throw new NotFoundError(`unknown verified query '${id}'`, { id });
    if (entry.origin === 'config')
      throw new EngineError(
        'VERIFIED_QUERY_READ_ONLY',
        `verified query '${id}' comes from the config file (verified_queries) and is read-only; change it there`,
        { id },
      );
    return entry;
  }

  /** Removes a runtime verified query (the refusals of `removable`). */
  removeRuntime(id: string): VerifiedEntry {
    const entry = this.removable(id);
    this.entries.delete(id);
    return entry;
  }

  /** Every verified query, enabled or not, with its status (for listings and drift reports). */
  list(): VerifiedEntry[] {
    return [...this.entries.values()];
  }

  entry(id: string): VerifiedEntry | undefined {
    return this.entries.get(id);
  }

  forDatasource(datasourceId: string): CheckedVerifiedQuery[] {
    return this.all().filter((v) => v.datasource_id === datasourceId);
  }

  /** An enabled verified query by id. */
  get(id: string): CheckedVerifiedQuery | undefined {
    return this.entries.get(id)?.checked ?? undefined;
  }

  /** Every enabled verified query, configured ones first. */
  all(): CheckedVerifiedQuery[] {
    return this.list().flatMap((e) => (e.checked ? [e.checked] : []));
  }

  /** The best lexical candidate among the given datasources, or null. */
  candidate(
    question: string,
    datasourceIds: readonly string[],
    /** Only queries the caller may run (policy/verified-visibility.ts) are candidates. */
    visible: (vq: CheckedVerifiedQuery) => boolean = () => true,
  ): { query: CheckedVerifiedQuery; score: number } | null {
    let best: { query: CheckedVerifiedQuery; score: number } | null = null;
    for (const vq of this.all()) {
      if (!datasourceIds.includes(vq.datasource_id) || !visible(vq)) continue;
      const score = Math.max(...[vq.question, ...(vq.paraphrases ?? [])].map((q) => overlap(question, q)));
      if (score >= MATCH_THRESHOLD && (!best || score > best.score)) best = { query: vq, score };
    }
    return best;
  }

  private assertFree(id: string): void {
    const taken = this.entries.get(id);
    if (taken)
      throw new EngineError(
        'VERIFIED_QUERY_EXISTS',
        `a verified query '${id}' already exists (${taken.origin === 'config' ? 'in the config file' : 'added at runtime'}); choose another id`,
        { id },
      );
  }
}

function newEntry(
  definition: VerifiedQueryConfig,
  origin: VerifiedOrigin,
  path: string,
  provenance: VerifiedProvenance | null,
): VerifiedEntry {
  return {
    definition,
    origin,
    path,
    provenance,
    status: 'unchecked',
    reason: null,
    problems: [],
    checked: null,
    schemaVersion: null,
  };
}

function applyCheck(entry: VerifiedEntry, snapshot: SchemaSnapshot): void {
  const { plan, problems } = checkVerifiedQuery(entry.definition, snapshot, entry.path);
  entry.schemaVersion = snapshot.schemaVersion;
  entry.problems = problems;
  if (plan && !problems.length) {
    entry.status = 'enabled';
    entry.reason = null;
    entry.checked = { ...entry.definition, plan };
  } else {
    entry.status = 'disabled';
    entry.reason = problems.map((p) => `${p.path.slice(entry.path.length + 1)}: ${p.message}`).join('; ');
    entry.checked = null;
  }
}

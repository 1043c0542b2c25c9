/**
 * The index status (spec section 2, rule 3 of section 3), computed from the live builds and the
 * datasources the engine has configured now. Precedence: `missing` (nothing built for the configured
 * embedding model), then `stale` (a configured datasource has no live build, a build belongs to a
 * datasource no longer configured, or a datasource's schema changed since its build), then `empty`
 * (builds exist but hold no table), else `ok`. Every problem says how to fix it.
 */
import type { BuildRecord } from './store/index-store';

export type IndexState = 'ok' | 'empty' | 'stale' | 'missing';

export interface IndexProblem {
  readonly code:
    | 'INDEX_UNAVAILABLE'
    | 'NOT_BUILT'
    | 'MODEL_CHANGED'
    | 'DATASOURCE_NOT_INDEXED'
    | 'DATASOURCE_REMOVED'
    | 'SCHEMA_CHANGED'
    | 'NO_TABLES'
    | 'NO_DATASOURCES'
    /** A verified query no longer passes its check against its datasource's schema (verified/drift.ts). */
    | 'VERIFIED_QUERY_DISABLED';
  readonly datasource_id: string | null;
  readonly message: string;
  readonly fix: string;
}

/** Wire shape of GET /api/v1/index/status. */
export interface IndexStatus {
  readonly status: IndexState;
  readonly total: number;
  readonly counts: Record<string, number>;
  /** Latest build; null when nothing is built. */
  readonly built_at: string | null;
  readonly embedding_model: string;
  readonly namespace: string;
  readonly datasources: {
    readonly datasource_id: string;
    readonly entries: number;
    readonly index_version: number;
    readonly built_at: string;
    readonly schema_version: string;
  }[];
  readonly problems: IndexProblem[];
}

/** A configured datasource; `schemaVersion` when the caller knows its current schema. */
export interface ConfiguredDatasource {
  readonly datasourceId: string;
  readonly schemaVersion?: string;
}

export interface StatusInput {
  readonly namespace: string;
  readonly embeddingModel: string;
  readonly configured: readonly ConfiguredDatasource[];
  readonly builds: readonly BuildRecord[];
  readonly counts: Record<string, number>;
  /** Embedding models with live builds in the namespace. */
  readonly modelsBuilt: readonly string[];
}

export function computeStatus(input: StatusInput): IndexStatus {
  const { namespace, embeddingModel, configured, builds, counts } = input;
  const problems: IndexProblem[] = [];
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  let status: IndexState;
  if (builds.length === 0 && configured.length === 0) {
    status = 'empty';
    problems.push({
      code: 'NO_DATASOURCES',
      datasource_id: null,
      message: 'no datasource is configured, so there is nothing to index',
      fix: 'add a datasource to the config (datasources:), then POST /api/v1/index-all',
    });
  } else if (builds.length === 0) {
    status = 'missing';
    const others = input.modelsBuilt.filter((m) => m !== embeddingModel);
    problems.push(
      others.length
        ? {
            code: 'MODEL_CHANGED',
            datasource_id: null,
            message: `the index was built with embedding model ${others.join(', ')}, but the configured model is ${embeddingModel}`,
            fix: 'rebuild with the configured model: POST /api/v1/index-all (or restore the previous embeddings section)',
          }
        : {
            code: 'NOT_BUILT',
            datasource_id: null,
            message: `no index has been built for embedding model ${embeddingModel}`,
            fix: 'build it: POST /api/v1/index-all',
          },
    );
  } else {
    const built = new Map(builds.map((b) => [b.datasourceId, b]));
    const wanted = new Set(configured.map((c) => c.datasourceId));
    for (const c of configured) {
      const b = built.get(c.datasourceId);
      if (!b) {
        problems.push({
          code: 'DATASOURCE_NOT_INDEXED',
          datasource_id: c.datasourceId,
          message: `datasource ${c.datasourceId} has no index build`,
          fix: `POST /api/v1/index/${c.datasourceId}`,
        });
      } else if (c.schemaVersion !== undefined && c.schemaVersion !== b.schemaVersion) {
        problems.push({
          code: 'SCHEMA_CHANGED',
          datasource_id: c.datasourceId,
          message: `the schema of ${c.datasourceId} changed since its build (built from ${b.schemaVersion}, now ${c.schemaVersion})`,
          fix: `POST /api/v1/index/${c.datasourceId}`,
        });
      }
    }
    for (const b of builds) {
      if (!wanted.has(b.datasourceId)) {
        problems.push({
          code: 'DATASOURCE_REMOVED',
          datasource_id: b.datasourceId,
          message: `the index holds entries of ${b.datasourceId}, which is no longer configured`,
          fix: 'POST /api/v1/index-all to drop them (or add the datasource back)',
        });
      }
    }
    if (problems.length) status = 'stale';
    else if (!counts['schema.table']) {
      status = 'empty';
      for (const b of builds) {
        problems.push({
          code: 'NO_TABLES',
          datasource_id: b.datasourceId,
          message: `no table was found in ${b.datasourceId}`,
          fix: `check that its connection user can read the tables, then POST /api/v1/index/${b.datasourceId}`,
        });
      }
    } else status = 'ok';
  }
  const latest =
    builds
      .map((b) => b.builtAt)
      .sort()
      .at(-1) ?? null;
  return {
    status,
    total,
    counts,
    built_at: latest,
    embedding_model: embeddingModel,
    namespace,
    datasources: builds.map((b) => ({
      datasource_id: b.datasourceId,
      entries: b.entries,
      index_version: b.indexVersion,
      built_at: b.builtAt,
      schema_version: b.schemaVersion,
    })),
    problems,
  };
}

/**
 * Fills every default in one place, so the rest of the code reads a complete configuration, and
 * resolves relative file paths against the config file's folder (a config is portable with its data).
 */
import { isAbsolute, resolve } from 'node:path';
import type {
  ApiConfig,
  DatasourceConfig,
  EmbeddingsConfig,
  HookConfig,
  LlmSection,
  RawConfig,
  RolePolicy,
  VerifiedQueryConfig,
} from './schema';

export const DEFAULT_ROW_CAP = 10_000;
export const DEFAULT_TIMEOUT_S = 30;
export const DEFAULT_MAX_AGE_DAYS = 30;

/**
 * From this similarity between a question and a verified question (the index embedder's cosine),
 * the verified query answers with no model call when its parameters can be filled without one.
 */
export const DEFAULT_VERIFIED_DIRECT_THRESHOLD = 0.9;

export interface StoreSettings {
  readonly path: string;
  readonly max_age_days: number;
}

export interface PipelineSettingsResolved {
  readonly max_cost_usd: number | null;
  readonly max_model_calls: number;
  readonly max_retries: number;
  readonly sample_rows: number;
  readonly max_sub_queries: number;
  readonly plan_cache_size: number;
  readonly verified_direct_threshold: number | null;
  readonly decompose: 'auto' | 'always';
}

export interface AppConfig {
  readonly tenant_id: string;
  readonly api: ApiConfig & { readonly trust_body_role: boolean; readonly cors_origins: readonly string[] };
  readonly policies: {
    readonly admin_roles: readonly string[];
    readonly roles: Readonly<Record<string, RolePolicy>> | null;
  };
  readonly datasources: readonly DatasourceConfig[];
  readonly verified_queries: readonly VerifiedQueryConfig[];
  /** Null when the file has no llm section: the engine then uses the key-free default preset. */
  readonly llm: LlmSection | null;
  readonly embeddings: EmbeddingsConfig;
  readonly storage: {
    readonly results: StoreSettings;
    readonly traces: StoreSettings;
    readonly index: { readonly path: string; readonly namespace: string; readonly build_on_start: boolean };
  };
  readonly settings: { readonly pipeline: PipelineSettingsResolved };
  readonly hooks: readonly HookConfig[];
  /** Folder relative paths were resolved against. */
  readonly base_dir: string;
}

export function resolveDefaults(raw: RawConfig, baseDir: string): AppConfig {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));
  const store = (
    s: { path?: string; max_age_days?: number } | undefined,
    fallback: string,
  ): StoreSettings => ({
    path: abs(s?.path ?? fallback),
    max_age_days: s?.max_age_days ?? DEFAULT_MAX_AGE_DAYS,
  });
  const p = raw.settings?.pipeline ?? {};
  return {
    tenant_id: raw.tenant_id ?? 'default',
    api: {
      ...raw.api,
      trust_body_role: raw.api?.trust_body_role ?? false,
      cors_origins: raw.api?.cors_origins ?? [],
    },
    policies: { admin_roles: raw.policies?.admin_roles ?? ['admin'], roles: raw.policies?.roles ?? null },
    datasources: (raw.datasources ?? []).map((ds) => resolveDatasourcePaths(ds, baseDir)),
    verified_queries: raw.verified_queries ?? [],
    llm: raw.llm ?? null,
    embeddings: raw.embeddings ?? { provider: 'local' },
    storage: {
      results: store(raw.storage?.results, './data/results'),
      traces: store(raw.storage?.traces, './data/traces'),
      index: {
        path: abs(raw.storage?.index?.path ?? './data/index'),
        namespace: raw.storage?.index?.namespace ?? 'default',
        build_on_start: raw.storage?.index?.build_on_start ?? false,
      },
    },
    settings: {
      pipeline: {
        max_cost_usd: p.max_cost_usd ?? null,
        max_model_calls: p.max_model_calls ?? 20,
        max_retries: p.max_retries ?? 2,
        sample_rows: p.sample_rows ?? 20,
        max_sub_queries: p.max_sub_queries ?? 4,
        plan_cache_size: p.plan_cache_size ?? 1000,
        decompose: p.decompose ?? 'auto',
        verified_direct_threshold:
          p.verified_direct_threshold === undefined
            ? DEFAULT_VERIFIED_DIRECT_THRESHOLD
            : p.verified_direct_threshold,
      },
    },
    hooks: (raw.hooks ?? []).map((h) => ({ ...h, module: abs(h.module) })),
    base_dir: baseDir,
  };
}

/** File datasources (duckdb, sqlite) name a path relative to the config file's folder. */
export function resolveDatasourcePaths(ds: DatasourceConfig, baseDir: string): DatasourceConfig {
  const path = ds.connection.path;
  if (!path || isAbsolute(path) || path === ':memory:') return ds;
  return { ...ds, connection: { ...ds.connection, path: resolve(baseDir, path) } };
}

export function rowCapOf(ds: DatasourceConfig): number {
  return ds.limits?.row_cap ?? DEFAULT_ROW_CAP;
}

export function timeoutMsOf(ds: DatasourceConfig): number {
  return Math.round((ds.limits?.timeout_s ?? DEFAULT_TIMEOUT_S) * 1000);
}

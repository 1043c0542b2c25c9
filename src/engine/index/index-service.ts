/**
 * The schema index of one engine: builds (atomic per datasource), status, clear, and the retriever
 * over the live entries. Builds run one at a time; after each the retriever is reloaded from the
 * store, so queries always read a complete set of entries.
 */
import { EngineError, isErrorCode } from '../errors';
import type { SchemaSnapshot } from '../datasources/schema';
import { redact } from '../../config/redact';
import type { Embedder } from './embedders/embedder';
import { buildEntries, type DatasourceMeta, type EntryKind } from './entries';
import {
  Retriever,
  type EvidenceOptions,
  type LinkOptions,
  type RankedDatasource,
  type SchemaLink,
} from './retriever';
import { computeStatus, type ConfiguredDatasource, type IndexStatus } from './status';
import type { IndexScope, IndexStore, StoredEntry } from './store/index-store';
import { collectValues, DEFAULT_VALUE_LIMITS, type ValueLimits, type ValueSource } from './values/collect';
import { ValueIndex, type LookupOptions, type ValueMatch } from './values/value-index';

export interface IndexLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface IndexServiceOptions {
  readonly store: IndexStore;
  readonly embedder: Embedder;
  /** `storage.index.namespace`; default `default`. */
  readonly namespace?: string;
  readonly logger?: IndexLogger;
  /** Texts embedded (and written) per batch; progress is logged per batch on long builds. */
  readonly batchSize?: number;
  /** Bounds of the value index per column and datasource. */
  readonly valueLimits?: ValueLimits;
}

/** Wire shape of one datasource's build (`indexing_stats`). */
export interface IndexingStats {
  readonly datasource_id: string;
  readonly entries: number;
  readonly counts: Partial<Record<EntryKind, number>>;
  readonly index_version: number;
  readonly built_at: string;
  readonly schema_version: string;
  readonly embedding_model: string;
  /** Distinct text values indexed (the value index), and the seconds spent reading them. */
  readonly values: number;
  readonly values_seconds: number;
  readonly seconds: number;
  /** Embedding requests and provider-reported tokens of this build. */
  readonly embedding_usage: { readonly calls: number; readonly texts: number; readonly input_tokens: number };
}

/** One datasource for `indexAll`: its snapshot is loaded lazily so a failing introspection is one `errors` entry. */
export interface IndexTarget {
  readonly datasourceId: string;
  readonly snapshot: SchemaSnapshot | (() => Promise<SchemaSnapshot>);
  readonly meta?: DatasourceMeta;
  /** Where the datasource's column values are read; no value index for it when absent. */
  readonly values?: ValueSource;
}

/** Wire shape of `indexing_results` (POST /api/v1/index-all). */
export interface IndexAllResult {
  readonly stats: IndexingStats[];
  /** Datasources that were built but hold no table. */
  readonly empty: { readonly datasource_id: string; readonly reason: string }[];
  readonly errors: { readonly datasource_id: string; readonly error: string; readonly error_code: string }[];
  /** Datasources no longer configured whose entries were dropped. */
  readonly removed: string[];
}

/** Wire shape of DELETE /api/v1/index. */
export interface ClearIndexResult {
  readonly namespace: string;
  readonly removed_entries: number;
  readonly removed_builds: number;
  /** Entries removed per datasource. */
  readonly datasources: Record<string, number>;
}

const PROGRESS_EVERY = 1000;

export class IndexService {
  readonly namespace: string;
  readonly scope: IndexScope;
  private current: Retriever;
  private currentValues: ValueIndex = new ValueIndex([]);
  private queue: Promise<unknown> = Promise.resolve();
  private readonly batchSize: number;

  constructor(private readonly options: IndexServiceOptions) {
    this.namespace = options.namespace ?? 'default';
    this.scope = { namespace: this.namespace, embeddingModel: options.embedder.model };
    this.batchSize = options.batchSize ?? 256;
    this.current = new Retriever([], options.embedder);
  }

  get embeddingModel(): string {
    return this.options.embedder.model;
  }

  /** Opens the store and loads the live entries of the configured embedding model. */
  async open(): Promise<void> {
    await this.options.store.open();
    await this.reload();
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.options.store.close();
  }

  /** Builds one datasource's entries beside its live ones and switches them in when all are written. */
  indexDatasource(
    datasourceId: string,
    snapshot: SchemaSnapshot,
    meta: DatasourceMeta = {},
    values?: ValueSource,
  ): Promise<IndexingStats> {
    return this.serial(async () => {
      const stats = await this.build(datasourceId, snapshot, meta, values);
      await this.reload();
      return stats;
    });
  }

  /**
   * Builds every listed datasource; one that fails is reported in `errors` and keeps its previous
   * entries. Live builds of datasources not in the list are dropped (spec rule 6: a removed
   * datasource's entries stay until the next full index).
   */
  indexAll(targets: readonly IndexTarget[]): Promise<IndexAllResult> {
    return this.serial(async () => {
      const stats: IndexingStats[] = [];
      const empty: IndexAllResult['empty'][number][] = [];
      const errors: IndexAllResult['errors'][number][] = [];
      for (const target of targets) {
        try {
          const snapshot = typeof target.snapshot === 'function' ? await target.snapshot() : target.snapshot;
          const s = await this.build(target.datasourceId, snapshot, target.meta ?? {}, target.values);
          stats.push(s);
          if (!snapshot.tables.length)
            empty.push({ datasource_id: target.datasourceId, reason: 'no tables found' });
        } catch (err) {
          const e = asEngineError(err, target.datasourceId);
          this.options.logger?.warn(`index build of ${target.datasourceId} failed: ${e.message}`);
          errors.push({ datasource_id: target.datasourceId, error: e.message, error_code: e.code });
        }
      }
      const wanted = new Set(targets.map((t) => t.datasourceId));
      const removed: string[] = [];
      for (const b of await this.options.store.liveBuilds(this.scope)) {
        if (wanted.has(b.datasourceId)) continue;
        await this.options.store.dropDatasource(this.scope, b.datasourceId);
        removed.push(b.datasourceId);
      }
      await this.reload();
      return { stats, empty, errors, removed };
    });
  }

  /** Removes every entry of the namespace (all embedding models). */
  clear(): Promise<ClearIndexResult> {
    return this.serial(async () => {
      const r = await this.options.store.clear(this.namespace);
      await this.reload();
      return {
        namespace: this.namespace,
        removed_entries: r.entries,
        removed_builds: r.builds,
        datasources: r.datasources,
      };
    });
  }

  /** Status against the datasources configured now (ids, or ids with their current schema version). */
  async status(configured: readonly (string | ConfiguredDatasource)[]): Promise<IndexStatus> {
    const store = this.options.store;
    const [builds, counts, modelsBuilt] = await Promise.all([
      store.liveBuilds(this.scope),
      store.countByKind(this.scope),
      store.models(this.namespace),
    ]);
    return computeStatus({
      namespace: this.namespace,
      embeddingModel: this.embeddingModel,
      configured: configured.map((c) => (typeof c === 'string' ? { datasourceId: c } : c)),
      builds,
      counts,
      modelsBuilt,
    });
  }

  /** The retriever over the entries live at the last load (immutable; a build swaps in a new one). */
  retriever(): Retriever {
    return this.current;
  }

  /** The value index over the values live at the last load. */
  values(): ValueIndex {
    return this.currentValues;
  }

  /** Stored values that the question's words and phrases name, best first. */
  lookupValues(question: string, options?: LookupOptions): ValueMatch[] {
    return this.currentValues.lookup(question, options);
  }

  rankDatasources(question: string, options?: EvidenceOptions): Promise<RankedDatasource[]> {
    return this.current.rankDatasources(question, options);
  }

  linkSchema(question: string, datasourceId: string, options?: LinkOptions): Promise<SchemaLink> {
    return this.current.linkSchema(question, datasourceId, options);
  }

  private async build(
    datasourceId: string,
    snapshot: SchemaSnapshot,
    meta: DatasourceMeta,
    valueSource?: ValueSource,
  ): Promise<IndexingStats> {
    if (snapshot.datasourceId !== datasourceId) {
      throw new EngineError(
        'INDEX_SNAPSHOT_MISMATCH',
        `the schema snapshot is of datasource ${snapshot.datasourceId}, not ${datasourceId}`,
        { datasource_id: datasourceId },
      );
    }
    const started = performance.now();
    const { store, embedder, logger } = this.options;
    const before = embedder.usage();
    const drafts = buildEntries(snapshot, meta);
    const long = drafts.length >= PROGRESS_EVERY;
    if (long) logger?.info(`indexing ${datasourceId}: ${drafts.length} entries`);
    const buildId = await store.beginBuild(this.scope, datasourceId, snapshot.schemaVersion);
    let values = 0;
    let valuesSeconds = 0;
    try {
      if (valueSource) {
        const valuesStarted = performance.now();
        const found = await collectValues(
          snapshot,
          valueSource,
          this.options.valueLimits ?? DEFAULT_VALUE_LIMITS,
        );
        await store.appendValues(buildId, found);
        values = found.length;
        valuesSeconds = (performance.now() - valuesStarted) / 1000;
      }
      let nextReport = PROGRESS_EVERY;
      for (let start = 0; start < drafts.length; start += this.batchSize) {
        const batch = drafts.slice(start, start + this.batchSize);
        const vectors = await embedder.embed(batch.map((d) => d.text));
        const entries: StoredEntry[] = batch.map((d, i) => ({
          ...d,
          datasourceId,
          vector: vectors[i] ?? new Float32Array(),
        }));
        await store.appendEntries(buildId, this.scope, datasourceId, entries);
        const done = start + batch.length;
        if (long && done >= nextReport) {
          logger?.info(`indexing ${datasourceId}: ${done}/${drafts.length} entries written`);
          nextReport += PROGRESS_EVERY;
        }
      }
    } catch (err) {
      await store.abortBuild(buildId).catch(() => undefined);
      throw asEngineError(err, datasourceId);
    }
    const record = await store.commitBuild(buildId);
    const after = embedder.usage();
    const counts: Partial<Record<EntryKind, number>> = {};
    for (const d of drafts) counts[d.kind] = (counts[d.kind] ?? 0) + 1;
    const seconds = (performance.now() - started) / 1000;
    if (long) logger?.info(`indexed ${datasourceId}: ${record.entries} entries in ${seconds.toFixed(1)} s`);
    return {
      datasource_id: datasourceId,
      entries: record.entries,
      counts,
      index_version: record.indexVersion,
      built_at: record.builtAt,
      schema_version: record.schemaVersion,
      embedding_model: embedder.model,
      values,
      values_seconds: Math.round(valuesSeconds * 1000) / 1000,
      seconds: Math.round(seconds * 1000) / 1000,
      embedding_usage: {
        calls: after.calls - before.calls,
        texts: after.texts - before.texts,
        input_tokens: after.inputTokens - before.inputTokens,
      },
    };
  }

  private async reload(): Promise<void> {
    const entries = await this.options.store.loadEntries(this.scope);
    const values = new ValueIndex(await this.options.store.loadValues(this.scope), {
      schemaNames: schemaNames(entries),
    });
    this.current = new Retriever(entries, this.options.embedder, values);
    this.currentValues = values;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Per datasource, the names of its tables and columns (their words alone never find a value). */
function schemaNames(entries: readonly StoredEntry[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of entries) {
    if (e.kind !== 'schema.table' && e.kind !== 'schema.column') continue;
    const meta = e.meta as { table: string; column?: string };
    const names = out.get(e.datasourceId) ?? [];
    names.push(meta.column ?? meta.table.slice(meta.table.lastIndexOf('.') + 1));
    out.set(e.datasourceId, names);
  }
  return out;
}

/** Keeps an engine error's code (a provider failure stays PROVIDER_*); anything else is INDEX_BUILD_FAILED. */
function asEngineError(err: unknown, datasourceId: string): EngineError {
  if (err instanceof EngineError) return err;
  const raw = (err as { code?: unknown })?.code;
  const code = isErrorCode(raw) ? raw : 'INDEX_BUILD_FAILED';
  const message = redact(err instanceof Error ? err.message : String(err));
  return new EngineError(code, `index build of ${datasourceId} failed: ${message}`, {
    datasource_id: datasourceId,
  });
}

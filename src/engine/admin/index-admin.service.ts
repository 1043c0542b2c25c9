/** The schema index at runtime: build one datasource or all, clear, and report status. */
import { Inject, Injectable } from '@nestjs/common';
import { DatasourceRegistry } from '../datasources/registry';
import type { SchemaSnapshot } from '../datasources/schema';
import { ENGINE_CONFIG, type EngineConfig } from '../engine-config';
import { IndexBuildError } from '../errors';
import type {
  ClearIndexResult,
  DatasourceMeta,
  IndexAllResult,
  IndexingStats,
  IndexStatus,
  IndexTarget,
} from '../index';
import { SchemaIndex } from '../index';
import { getLogger } from '../logging/logger';

const log = getLogger('nl2sql.index');

@Injectable()
export class IndexAdmin {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly datasources: DatasourceRegistry,
    private readonly index: SchemaIndex,
  ) {}

  /**
   * Builds one datasource's index entries (introspecting it first if needed). An unknown id is a
   * NotFoundError; any failure to index a known one is an IndexBuildError naming the reason.
   */
  async indexDatasource(id: string): Promise<IndexingStats> {
    this.datasources.require(id);
    try {
      const entry = await this.datasources.use(id);
      const stats = await this.index
        .require()
        .indexDatasource(id, await this.freshSnapshot(id), this.meta(entry.config.id), entry.adapter);
      this.index.built();
      return stats;
    } catch (err) {
      const failure = new IndexBuildError(id, err);
      log.warn('indexing failed', { datasource_id: id, reason: failure.message });
      throw failure;
    }
  }

  /** Builds every configured datasource; one that fails is an `errors` entry and keeps its entries. */
  async indexAll(): Promise<IndexAllResult> {
    const targets: IndexTarget[] = this.datasources.ids().map((id) => ({
      datasourceId: id,
      snapshot: () => this.freshSnapshot(id),
      meta: this.meta(id),
      values: this.datasources.require(id).adapter,
    }));
    const result = await this.index.require().indexAll(targets);
    if (result.stats.length > 0) this.index.built();
    return result;
  }

  async clear(): Promise<ClearIndexResult> {
    const result = await this.index.require().clear();
    this.index.cleared();
    return result;
  }

  async status(): Promise<IndexStatus> {
    if (!this.index.available) {
      const model = this.config.embeddings.model ?? this.config.embeddings.provider;
      return {
        status: 'missing',
        total: 0,
        counts: {},
        built_at: null,
        embedding_model: model,
        namespace: this.config.storage.index.namespace,
        datasources: [],
        problems: [
          {
            code: 'INDEX_UNAVAILABLE',
            datasource_id: null,
            message: `the embedder cannot be built: ${this.index.problem}`,
            fix: 'fix the embeddings section (or its key) and restart, then POST /api/v1/index-all',
          },
        ],
      };
    }
    return this.index
      .require()
      .status(
        this.datasources
          .all()
          .map((e) => ({ datasourceId: e.config.id, schemaVersion: e.snapshot?.schemaVersion })),
      );
  }

  /** Introspects again so a build always reflects the schema as it is now. */
  private async freshSnapshot(id: string): Promise<SchemaSnapshot> {
    const entry = await this.datasources.use(id);
    entry.snapshot = await entry.adapter.introspect();
    return entry.snapshot;
  }

  private meta(id: string): DatasourceMeta {
    const cfg = this.datasources.require(id).config;
    return {
      description: cfg.description,
      sampleQuestions: cfg.sample_questions ?? [],
      verifiedQueries: this.config.verified_queries
        .filter((v) => v.datasource_id === id)
        .map((v) => ({ id: v.id, question: v.question, paraphrases: v.paraphrases ?? [], sql: v.sql })),
    };
  }
}

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
  IndexProblem,
  IndexStatus,
  IndexTarget,
} from '../index';
import { SchemaIndex } from '../index';
import { getLogger } from '../logging/logger';
import { VerifiedQueries } from '../verified/verified-queries';

const log = getLogger('nl2sql.index');

@Injectable()
export class IndexAdmin {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly datasources: DatasourceRegistry,
    private readonly index: SchemaIndex,
    private readonly verified: VerifiedQueries,
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

  /** The index's status, and the verified queries a schema change disabled among its problems. */
  async status(): Promise<IndexStatus> {
    const status = await this.indexStatus();
    const disabled = this.disabledVerifiedQueries();
    return disabled.length ? { ...status, problems: [...status.problems, ...disabled] } : status;
  }

  /**
   * One problem per disabled verified query. The reason stays in GET /api/v1/verified-queries (for
   * admins): this route needs no role, and a reason may name a column some roles may not read.
   */
  private disabledVerifiedQueries(): IndexProblem[] {
    return this.verified
      .list()
      .filter((e) => e.status === 'disabled')
      .map((e) => ({
        code: 'VERIFIED_QUERY_DISABLED',
        datasource_id: e.definition.datasource_id,
        message: `verified query '${e.definition.id}' is disabled: it no longer passes its check against the schema of '${e.definition.datasource_id}'`,
        fix:
          e.origin === 'config'
            ? 'GET /api/v1/verified-queries (admin) gives the reason; fix its SQL in verified_queries, or the schema'
            : 'GET /api/v1/verified-queries (admin) gives the reason; DELETE it and POST a fixed one, or fix the schema',
      }));
  }

  private async indexStatus(): Promise<IndexStatus> {
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
  private freshSnapshot(id: string): Promise<SchemaSnapshot> {
    return this.datasources.refreshSnapshot(id);
  }

  private meta(id: string): DatasourceMeta {
    const cfg = this.datasources.require(id).config;
    return {
      description: cfg.description,
      sampleQuestions: cfg.sample_questions ?? [],
      // Configured and runtime ones, whatever their status: their questions route to the datasource.
      verifiedQueries: this.verified
        .list()
        .map((e) => e.definition)
        .filter((v) => v.datasource_id === id)
        .map((v) => ({ id: v.id, question: v.question, paraphrases: v.paraphrases ?? [], sql: v.sql })),
    };
  }
}

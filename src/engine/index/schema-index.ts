/**
 * The engine's one handle on the schema index: the index service when the embeddings section can
 * be used (else the reason it cannot), and whether it is open with entries. Routing and schema
 * linking use the index only when it is live; a build or a clear at runtime takes effect on the
 * next run. Every change of that state goes through this class.
 */
import type { AppConfig } from '../../config/defaults';
import type { SecretManager } from '../../config/secrets';
import { EngineError } from '../errors';
import { getLogger } from '../logging/logger';
import { createEmbedder } from './embedders/create-embedder';
import { dot, type Embedder } from './embedders/embedder';
import { createIndexService } from './create-index-service';
import type { IndexService } from './index-service';

export class SchemaIndex {
  private isOpen = false;
  private readonly log = getLogger('nl2sql.index');

  constructor(
    private readonly service: IndexService | null,
    /** Why there is no index service (e.g. the embeddings key is missing), when there is none. */
    readonly problem: string | null,
    /** The index's embedder, for comparing a question with known questions the way the index does. */
    private readonly embedder: Embedder | null = null,
  ) {}

  /** Like a model key (spec 4.16.7), a missing embeddings key does not stop the engine being built. */
  static fromConfig(config: AppConfig, secrets: SecretManager): SchemaIndex {
    try {
      const service = createIndexService(
        { embeddings: config.embeddings, storage: { index: config.storage.index } },
        { secrets, logger: getLogger('nl2sql.index') },
      );
      return new SchemaIndex(service, null, createEmbedder(config.embeddings, secrets));
    } catch (err) {
      return new SchemaIndex(null, err instanceof Error ? err.message : String(err));
    }
  }

  /** The index when it is open and has entries; null sends routing to the model. */
  live(): IndexService | null {
    return this.isOpen ? this.service : null;
  }

  /** The index service, or INDEX_UNAVAILABLE naming why. */
  require(): IndexService {
    if (!this.service)
      throw new EngineError('INDEX_UNAVAILABLE', `the schema index is unavailable: ${this.problem}`);
    return this.service;
  }

  get available(): boolean {
    return this.service !== null;
  }

  /**
   * The highest cosine similarity between `question` and any of `texts` by the index's embedder
   * (0..1), or null when there is no embedder. Needs no built index.
   */
  async similarity(question: string, texts: readonly string[]): Promise<number | null> {
    const each = await this.similarities(question, texts);
    return each === null ? null : Math.max(0, ...each);
  }

  /** The cosine similarity of `question` with each of `texts`, or null when there is no embedder. */
  async similarities(question: string, texts: readonly string[]): Promise<number[] | null> {
    if (!this.embedder || !texts.length) return null;
    const [q, ...others] = await this.embedder.embed([question, ...texts]);
    // Vectors are L2-normalised: the dot product is the cosine.
    return others.map((v) => Math.max(0, dot(q!, v)));
  }

  /** Opens the store at start-up; a failure is logged and routing falls back to the model. */
  async open(datasourceIds: readonly string[]): Promise<void> {
    if (!this.service) {
      this.log.warn('schema index unavailable', { reason: this.problem });
      return;
    }
    try {
      await this.service.open();
      const status = await this.service.status([...datasourceIds]);
      this.isOpen = status.total > 0;
      this.log.info(`schema index ${status.status}`, {
        entries: status.total,
        problems: status.problems.length,
      });
    } catch (err) {
      this.log.warn('schema index unavailable', { reason: err instanceof Error ? err.message : String(err) });
    }
  }

  /** A build wrote entries: routing may use them from the next run. */
  built(): void {
    this.isOpen = true;
  }

  cleared(): void {
    this.isOpen = false;
  }

  async close(): Promise<void> {
    await this.service?.close();
  }
}

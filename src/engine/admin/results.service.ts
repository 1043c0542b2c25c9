/** A run's saved results in the engine's tenant: one page, or the whole result as CSV or Arrow. */
import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../engine-config';
import type { PageRequest, ResultPage } from '../storage';
import { ResultStore } from '../storage/result-store';

@Injectable()
export class ResultsService {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly store: ResultStore,
  ) {}

  /** One page, reading only the requested slice. NOT_FOUND when the result does not exist. */
  page(requestId: string, resultId: string, page: PageRequest = {}): Promise<ResultPage> {
    return this.store.readPage(this.config.tenant_id, requestId, resultId, page);
  }

  /** The whole result as UTF-8 CSV, header first; destroy the stream to release it early. */
  csv(requestId: string, resultId: string): Promise<Readable> {
    return this.store.streamCsv(this.config.tenant_id, requestId, resultId);
  }

  /**
   * The whole result as an Arrow IPC stream with typed columns, or with `page` only those rows
   * (the page rules of `page()`); destroy the stream to release it early.
   */
  arrow(requestId: string, resultId: string, page?: PageRequest): Promise<Readable> {
    return this.store.streamArrow(this.config.tenant_id, requestId, resultId, page);
  }
}

import { EngineError } from './engine-error';

/** One datasource as the start-up check found it. */
export interface DatasourceCheck {
  readonly datasource_id: string;
  readonly status: string;
  readonly required: boolean;
  readonly reason: string | null;
}

/** Start-up refused to serve: a required datasource failed, or none is ready; `checks` names each. */
export class EngineNotReadyError extends EngineError {
  constructor(
    message: string,
    readonly checks: readonly DatasourceCheck[],
  ) {
    super('ENGINE_NOT_READY', message, { checks });
    this.name = 'EngineNotReadyError';
  }
}

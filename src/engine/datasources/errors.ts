/**
 * Datasource failures as typed engine errors. Every message goes through `redact`, because a driver's
 * error text may quote a connection string or a password.
 */
import { redact } from '../../config/redact';
import { EngineError } from '../errors';

export const DATASOURCE_ERROR_CODES = [
  /** The connection config is wrong (missing key, key of another type, unresolvable secret). */
  'DATASOURCE_CONFIG_INVALID',
  /** Cannot connect, or the adapter was closed. */
  'DATASOURCE_UNAVAILABLE',
  /** The statement ran past its timeout and was cancelled. */
  'DATASOURCE_TIMEOUT',
  /** The statement tried to write; the database refused it. */
  'DATASOURCE_READ_ONLY',
  /** The caller's AbortSignal fired. */
  'DATASOURCE_ABORTED',
  /** Any other error of the statement (syntax, unknown column, bad parameter...). */
  'DATASOURCE_QUERY_FAILED',
] as const;
export type DatasourceErrorCode = (typeof DATASOURCE_ERROR_CODES)[number];

export class DatasourceError extends EngineError {
  constructor(
    override readonly code: DatasourceErrorCode,
    readonly datasourceId: string,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(code, redact(`datasource '${datasourceId}': ${message}`), {
      datasource_id: datasourceId,
      ...details,
    });
    this.name = 'DatasourceError';
  }
}

/** The driver's message of an unknown thrown value, redacted. */
export function causeMessage(cause: unknown): string {
  if (cause instanceof Error) return redact(cause.message);
  return redact(String(cause));
}

/** A driver error's `code` (SQLSTATE, errno name...) as a string, '' when it has none. */
export function driverCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
}

export function isDatasourceError(e: unknown): e is DatasourceError {
  return e instanceof DatasourceError;
}

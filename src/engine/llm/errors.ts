/**
 * Typed errors of the model layer. Every provider failure becomes one `PROVIDER_*` code at the
 * client edge (see providers/error-mapping.ts), with `provider` and `provider_response` set and any
 * key redacted, so the pipeline can put it in `errors[]` as it is.
 */
import { redact, redactDeep } from '../../config/redact';
import { EngineError, type ErrorCode } from '../errors';
import { capModelAnswer, capModelText } from '../redaction/model-text';
import type { CallRecord } from './usage';

/** Codes of provider failures. HTTP status of a run carrying one: 200 (pipeline failure as data). */
export const PROVIDER_CODES = [
  'PROVIDER_AUTH_FAILED',
  'PROVIDER_PERMISSION_DENIED',
  'PROVIDER_RATE_LIMITED',
  'PROVIDER_QUOTA_EXCEEDED',
  'PROVIDER_TIMEOUT',
  'PROVIDER_UNAVAILABLE',
  'PROVIDER_BAD_REQUEST',
  'PROVIDER_MODEL_NOT_FOUND',
  'PROVIDER_CONTEXT_TOO_LONG',
  'PROVIDER_CONTENT_REFUSED',
  'PROVIDER_TEMPERATURE_REJECTED',
  'PROVIDER_ERROR',
] as const;
export type ProviderErrorCode = (typeof PROVIDER_CODES)[number];

/** Codes of the model layer that are not a provider's answer. */
export type LlmErrorCode =
  | 'MODEL_OUTPUT_INVALID'
  | 'LLM_KEY_MISSING'
  | 'LLM_PROVIDER_UNSUPPORTED'
  | 'LLM_PROVIDER_NOT_INSTALLED'
  | 'LLM_PLUGIN_INVALID'
  | 'LLM_CLIENT_CLOSED'
  | 'LLM_AGENT_UNKNOWN';

/**
 * A model-layer error. `calls` holds the call records of every model call the failed operation
 * made (failed ones included), so a run's usage and cost stay complete when a node fails.
 */
export class LlmError extends EngineError {
  readonly provider: string | null;
  readonly providerResponse: unknown;
  calls: CallRecord[] = [];

  constructor(
    code: ProviderErrorCode | LlmErrorCode,
    message: string,
    options: { provider?: string | null; providerResponse?: unknown; details?: Record<string, unknown> } = {},
  ) {
    // A provider's (or a proxy's) text is capped like a model's: its error body may be any size.
    super(code, capModelText(redact(message)), redactDeep(options.details ?? {}));
    this.name = 'LlmError';
    this.provider = options.provider ?? null;
    this.providerResponse =
      options.providerResponse === undefined ? null : capModelAnswer(redactDeep(options.providerResponse));
  }

  get isProviderError(): boolean {
    return this.code.startsWith('PROVIDER_');
  }

  /** The pipeline error entry of the spec (section 7), minus `node` and `severity` which the caller knows. */
  toErrorEntry(node: string): {
    node: string;
    message: string;
    error_code: ErrorCode;
    severity: 'ERROR';
    provider: string | null;
    provider_response: unknown;
  } {
    return {
      node,
      message: this.message,
      error_code: this.code,
      severity: 'ERROR',
      provider: this.isProviderError ? this.provider : null,
      provider_response: this.isProviderError ? this.providerResponse : null,
    };
  }
}

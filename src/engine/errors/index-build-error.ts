import { redact } from '../../config/redact';
import { PublicServerError } from './engine-error';
import { isErrorCode } from './error-code';

/**
 * An existing datasource that could not be indexed (unavailable, unreadable, no embedder...). Spec
 * 4.12 answers it with HTTP 500 naming the reason, whatever the cause's own code would map to; the
 * code stays the cause's, so a caller still tells an unreachable datasource from a missing key.
 */
export class IndexBuildError extends PublicServerError {
  constructor(datasourceId: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      isErrorCode(code) ? code : 'INDEX_BUILD_FAILED',
      `indexing '${datasourceId}' failed: ${redact(reason)}`,
      {
        datasource_id: datasourceId,
      },
    );
    this.name = 'IndexBuildError';
  }
}

/**
 * `get_result_page` with `format: "arrow"`: the page's rows as the Arrow IPC stream the HTTP
 * `.arrow` route sends (the same encoder, the same typed schema), embedded as a resource (MCP
 * carries binary content as base64). A page is at most 1000 rows, so it is held whole here; the
 * whole result is the `.arrow` route's, whose path the answer names.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RecordBatchReader } from 'apache-arrow';
import type { ResultsService } from '../../../engine/admin/results.service';
import { ARROW_STREAM_MEDIA_TYPE, MAX_PAGE_LIMIT } from '../../../engine/storage';

export function resultRoute(requestId: string, resultId: string): string {
  return `/api/v1/query/${encodeURIComponent(requestId)}/results/${encodeURIComponent(resultId)}`;
}

export async function arrowPage(
  results: ResultsService,
  requestId: string,
  resultId: string,
  offset: number | undefined,
  limit: number,
): Promise<CallToolResult> {
  const parts: Buffer[] = [];
  for await (const chunk of await results.arrow(requestId, resultId, { offset, limit }))
    parts.push(chunk as Buffer);
  const bytes = Buffer.concat(parts);
  const reader = RecordBatchReader.from(bytes).open();
  const { fields, metadata } = reader.schema;
  const rows = [...reader].reduce((n, batch) => n + batch.numRows, 0);
  const first = Number(metadata.get('nl2sql.first_row') ?? 0);
  const total = Number(metadata.get('nl2sql.total_rows') ?? 0);
  const reached = first + rows;
  const whole = `${resultRoute(requestId, resultId)}.arrow`;
  const structured = {
    request_id: requestId,
    result_id: resultId,
    columns: fields.map((f) => f.metadata.get('nl2sql.name') ?? f.name),
    // The rows are in the Arrow stream (the resource), typed; none are repeated here.
    rows: [],
    offset: first,
    limit: Math.min(limit, MAX_PAGE_LIMIT),
    total_rows: total,
    next_offset: reached < total ? reached : null,
    arrow: {
      media_type: ARROW_STREAM_MEDIA_TYPE,
      rows,
      bytes: bytes.length,
      types: Object.fromEntries(fields.map((f) => [f.name, String(f.type)])),
      whole_result_path: whole,
    },
  };
  return {
    structuredContent: structured,
    content: [
      {
        type: 'text',
        text:
          `rows ${first + 1}-${reached} of ${total} as an Arrow IPC stream (${bytes.length} bytes, base64 in the ` +
          `resource); the whole result streams from GET ${whole} on the HTTP API`,
      },
      {
        type: 'resource',
        resource: {
          uri: `nl2sql:${whole}?offset=${first}&limit=${limit}`,
          mimeType: ARROW_STREAM_MEDIA_TYPE,
          blob: bytes.toString('base64'),
        },
      },
    ],
  };
}

/** Tool `get_result_page`: one page of a run's saved result, as `GET .../results/{result_id}` gives it. */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpDeps } from '../deps';
import { guarded, ok, textTable } from '../tool-result';
import { arrowPage } from './result-arrow';

export function registerResultTools(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'get_result_page',
    {
      title: 'Read a page of a saved result',
      description:
        "One page of a run's whole result: request_id and result_id come from an ask or run_verified_query answer. " +
        'format "arrow" gives the rows as an Apache Arrow IPC stream with typed columns (a base64 resource) ' +
        'instead of JSON rows, for dataframe tools.',
      inputSchema: {
        request_id: z.string().min(1),
        result_id: z.string().min(1),
        offset: z.number().int().min(0).optional().describe('First row, from 0 (default 0)'),
        limit: z.number().int().min(1).max(10000).optional().describe('Rows in the page (default 100)'),
        format: z
          .enum(['rows', 'arrow'])
          .optional()
          .describe('rows (default): JSON rows; arrow: an Arrow IPC stream resource, and no JSON rows'),
      },
      outputSchema: {
        request_id: z.string(),
        result_id: z.string(),
        columns: z.array(z.string()),
        rows: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
        offset: z.number().int(),
        limit: z.number().int(),
        total_rows: z.number().int(),
        next_offset: z.number().int().nullable(),
        arrow: z
          .object({
            media_type: z.string(),
            rows: z.number().int(),
            bytes: z.number().int(),
            types: z.record(z.string(), z.string()),
            whole_result_path: z.string(),
          })
          .optional()
          .describe(
            'With format "arrow": the stream in the resource, its Arrow types, the route of the whole result',
          ),
      },
    },
    ({ request_id, result_id, offset, limit, format }) =>
      guarded(async () => {
        if (format === 'arrow') return arrowPage(deps.results, request_id, result_id, offset, limit ?? 100);
        const page = await deps.results.page(request_id, result_id, { offset, limit: limit ?? 100 });
        const text =
          `${textTable(page.columns, page.rows)}\n` +
          `rows ${page.offset + 1}-${page.offset + page.rows.length} of ${page.total_rows}` +
          (page.next_offset !== null ? `; next offset ${page.next_offset}` : '');
        return ok({ ...page }, text);
      }),
  );
}

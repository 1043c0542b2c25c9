/** Tool `ask`: a question in plain words, answered by the whole pipeline under the caller's roles. */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Caller, McpDeps } from '../deps';
import { RUN_ANSWER_SHAPE, runAnswer } from '../run-answer';
import { progressReporter } from '../progress';
import { guarded } from '../tool-result';

export function registerAsk(server: McpServer, deps: McpDeps, caller: Caller): void {
  server.registerTool(
    'ask',
    {
      title: 'Ask a question of the databases',
      description:
        'Answers a question in plain words: finds the datasource, plans and validates a read-only query, runs it ' +
        'and returns the answer, the SQL per sub-query and a sample of rows. Use get_result_page for whole results. ' +
        'Sends a progress notification per finished step when the call carries a progress token.',
      inputSchema: {
        question: z.string().trim().min(1).max(4000).describe('The question, in plain words'),
        datasource_id: z.string().optional().describe('Ask this datasource only (see list_datasources)'),
        execute: z.boolean().optional().describe('Run the SQL (default true); false only plans it'),
      },
      outputSchema: RUN_ANSWER_SHAPE,
    },
    ({ question, datasource_id, execute }, extra) =>
      guarded(async () =>
        runAnswer(
          await deps.runs.run(
            { question, datasourceId: datasource_id ?? null, execute: execute ?? true, caller },
            extra.signal,
            progressReporter(extra),
          ),
        ),
      ),
  );
}

/**
 * Tools `list_verified_queries` and `run_verified_query`: the curated queries of the datasources the
 * caller may read, and running one by id with typed values (no model call to plan it).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { verifiedVisibleTo } from '../../../engine/policy/verified-visibility';
import type { Caller, McpDeps } from '../deps';
import { RUN_ANSWER_SHAPE, runAnswer } from '../run-answer';
import { progressReporter } from '../progress';
import { guarded, ok } from '../tool-result';

export function registerVerifiedTools(server: McpServer, deps: McpDeps, caller: Caller): void {
  // Only the queries the caller's policies let it run: a query over a denied table is not listed.
  const visible = () =>
    deps.verified
      .all()
      .filter(
        verifiedVisibleTo(
          caller.roles,
          deps.config.policies.roles,
          (id) => deps.datasources.get(id)?.snapshot,
        ),
      );

  server.registerTool(
    'list_verified_queries',
    {
      title: 'List verified queries',
      description:
        'Curated, reviewed queries you may run by id with run_verified_query, with their parameters.',
      inputSchema: { datasource_id: z.string().optional().describe('Only those of this datasource') },
      outputSchema: {
        verified_queries: z.array(
          z.object({
            id: z.string(),
            datasource_id: z.string(),
            question: z.string(),
            paraphrases: z.array(z.string()),
            params: z.record(z.string(), z.object({ type: z.string(), description: z.string().nullable() })),
          }),
        ),
      },
    },
    ({ datasource_id }) =>
      guarded(async () => {
        const list = visible()
          .filter((vq) => !datasource_id || vq.datasource_id === datasource_id)
          .map((vq) => ({
            id: vq.id,
            datasource_id: vq.datasource_id,
            question: vq.question,
            paraphrases: [...(vq.paraphrases ?? [])],
            params: Object.fromEntries(
              Object.entries(vq.params ?? {}).map(([n, p]) => [
                n,
                { type: p.type, description: p.description ?? null },
              ]),
            ),
          }));
        const text = list
          .map(
            (v) =>
              `${v.id} (${v.datasource_id}): ${v.question}${
                Object.keys(v.params).length
                  ? ` [${Object.entries(v.params)
                      .map(([n, p]) => `${n}: ${p.type}`)
                      .join(', ')}]`
                  : ''
              }`,
          )
          .join('\n');
        return ok({ verified_queries: list }, text || 'No verified query you may run.');
      }),
  );

  server.registerTool(
    'run_verified_query',
    {
      title: 'Run a verified query',
      description:
        'Runs a verified query by id with values for its parameters, typed as list_verified_queries declares ' +
        '(dates as YYYY-MM-DD). Returns the same answer as ask.',
      inputSchema: {
        id: z.string().min(1),
        params: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
          .optional()
          .describe('Parameter values by name'),
      },
      outputSchema: RUN_ANSWER_SHAPE,
    },
    ({ id, params }, extra) =>
      guarded(async () =>
        runAnswer(
          await deps.runs.runVerified(id, params ?? {}, caller, {
            signal: extra.signal,
            onEvent: progressReporter(extra),
          }),
        ),
      ),
  );
}

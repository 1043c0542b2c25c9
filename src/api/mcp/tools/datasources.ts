/**
 * Tools `list_datasources` and `describe_datasource`: what the caller's roles may read, and the
 * shape of one datasource: tables, columns, keys, a few sample values and the database's own
 * comments. A column the caller may not read keeps its name and shows no values and no comment,
 * as in the planner's prompt.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { EngineError } from '../../../engine/errors';
import {
  canReadColumn,
  canReadDatasource,
  canReadTable,
  readsWholeTable,
  valuesVisible,
} from '../../../engine/policy/rbac';
import type { Caller, McpDeps } from '../deps';
import { guarded, ok } from '../tool-result';

const SAMPLES = 3;

export function registerDatasourceTools(server: McpServer, deps: McpDeps, caller: Caller): void {
  const policies = deps.config.policies.roles;
  const readable = (id: string) => canReadDatasource(policies, caller.roles, id);

  server.registerTool(
    'list_datasources',
    {
      title: 'List datasources',
      description:
        'The datasources you may query, with their dialect, status, description and sample questions.',
      inputSchema: {},
      outputSchema: {
        datasources: z.array(
          z.object({
            id: z.string(),
            dialect: z.string(),
            status: z.string(),
            description: z.string().nullable(),
            sample_questions: z.array(z.string()),
          }),
        ),
      },
    },
    () =>
      guarded(async () => {
        const datasources = deps.datasources
          .all()
          .filter((e) => readable(e.config.id))
          .map((e) => ({
            id: e.config.id,
            dialect: e.adapter.dialect,
            status: e.status,
            description: e.config.description ?? null,
            sample_questions: [...(e.config.sample_questions ?? [])],
          }));
        const text = datasources.map(
          (d) => `${d.id} (${d.dialect}, ${d.status})${d.description ? `: ${d.description}` : ''}`,
        );
        return ok({ datasources }, text.join('\n') || 'No datasource you may read.');
      }),
  );

  server.registerTool(
    'describe_datasource',
    {
      title: 'Describe a datasource',
      description:
        "Tables, columns with types, primary and foreign keys, the database's comments and a few sample values of one datasource. " +
        'Columns your role may not read show no values and no comment.',
      inputSchema: { datasource_id: z.string().min(1).describe('A datasource id from list_datasources') },
      outputSchema: {
        datasource_id: z.string(),
        dialect: z.string(),
        tables: z.array(
          z.object({
            name: z.string(),
            readable: z.boolean(),
            row_count_estimate: z.number().nullable(),
            comment: z.string().nullable().optional(),
            primary_key: z.array(z.string()),
            foreign_keys: z.array(
              z.object({
                columns: z.array(z.string()),
                ref_table: z.string(),
                ref_columns: z.array(z.string()),
              }),
            ),
            columns: z.array(
              z.object({
                name: z.string(),
                type: z.string(),
                nullable: z.boolean(),
                readable: z.boolean(),
                comment: z.string().nullable().optional(),
                sample_values: z.array(z.union([z.string(), z.number(), z.boolean()])),
              }),
            ),
          }),
        ),
      },
    },
    ({ datasource_id }) =>
      guarded(async () => {
        const entry = deps.datasources.get(datasource_id);
        if (!entry) {
          throw new EngineError(
            'DATASOURCE_NOT_FOUND',
            `unknown datasource '${datasource_id}' (known: ${deps.datasources.ids().join(', ')})`,
          );
        }
        if (!readable(datasource_id))
          throw new EngineError('DATASOURCE_DENIED', `your role may not read datasource '${datasource_id}'`);
        const snapshot = (await deps.datasources.use(datasource_id)).snapshot;
        if (!snapshot)
          throw new EngineError('DATASOURCE_UNAVAILABLE', `datasource '${datasource_id}' has no schema yet`);
        const tables = snapshot.tables.map((t) => {
          const tableOk = canReadTable(policies, caller.roles, datasource_id, t.name);
          // Under a row filter the estimate counts rows the caller may not see; under a row filter
          // or a mask the samples are values it may not see.
          const whole = tableOk && readsWholeTable(policies, caller.roles, datasource_id, t.name);
          return {
            name: t.schema ? `${t.schema}.${t.name}` : t.name,
            readable: tableOk,
            row_count_estimate: whole ? t.rowCountEstimate : null,
            comment: tableOk ? (t.comment ?? null) : null,
            primary_key: [...t.primaryKey],
            foreign_keys: t.foreignKeys.map((fk) => ({
              columns: [...fk.columns],
              ref_table: fk.refTable,
              ref_columns: [...fk.refColumns],
            })),
            columns: t.columns.map((c) => {
              const columnOk =
                tableOk && canReadColumn(policies, caller.roles, datasource_id, t.name, c.name);
              return {
                name: c.name,
                type: c.type || c.kind,
                nullable: c.nullable,
                readable: columnOk,
                comment: columnOk ? (c.comment ?? null) : null,
                sample_values:
                  columnOk && valuesVisible(policies, caller.roles, datasource_id, t.name, c.name)
                    ? c.sampleValues.slice(0, SAMPLES)
                    : [],
              };
            }),
          };
        });
        const text = tables
          .map(
            (t) =>
              `${t.name}${t.readable ? '' : ' [not readable by your role]'}${t.comment ? ` (${t.comment})` : ''}: ` +
              t.columns
                .map(
                  (c) =>
                    `${c.name} ${c.type}${c.readable ? '' : ' [not readable]'}${c.comment ? ` (${c.comment})` : ''}`,
                )
                .join(', '),
          )
          .join('\n');
        return ok({ datasource_id, dialect: snapshot.dialect, tables }, text);
      }),
  );
}

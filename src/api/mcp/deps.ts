/**
 * What the MCP tools use of the engine, reached from a Nest context (the HTTP app or the engine
 * of `nl2sql mcp`), and who calls: the roles come from the same sources as HTTP (role header,
 * static role) or, on stdio, from the process's `--role`.
 */
import type { INestApplicationContext } from '@nestjs/common';
import { ResultsService } from '../../engine/admin/results.service';
import { DatasourceRegistry } from '../../engine/datasources/registry';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine/engine-config';
import { RunService } from '../../engine/run/run-service';
import type { Caller } from '../../engine/run/run-state';
import { VerifiedQueries } from '../../engine/verified/verified-queries';

export interface McpDeps {
  readonly runs: RunService;
  readonly datasources: DatasourceRegistry;
  readonly results: ResultsService;
  readonly verified: VerifiedQueries;
  readonly config: EngineConfig;
}

export function mcpDeps(context: Pick<INestApplicationContext, 'get'>): McpDeps {
  return {
    runs: context.get(RunService),
    datasources: context.get(DatasourceRegistry),
    results: context.get(ResultsService),
    verified: context.get(VerifiedQueries),
    config: context.get<EngineConfig>(ENGINE_CONFIG),
  };
}

export type { Caller };

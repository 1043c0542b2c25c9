/**
 * The MCP server of one caller: the service's tools over the engine, transport-free. HTTP builds
 * one per request (stateless, the caller's roles from the request); stdio builds one for the
 * process (the roles from `--role`). Both get it from the same injectable, McpServerFactory. No
 * admin operation is exposed.
 */
import { Inject, Injectable } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResultsService } from '../../engine/admin/results.service';
import { DatasourceRegistry } from '../../engine/datasources/registry';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine/engine-config';
import { RunService } from '../../engine/run/run-service';
import { VerifiedQueries } from '../../engine/verified/verified-queries';
import { SERVICE_VERSION } from '../../version';
import type { Caller, McpDeps } from './deps';
import { registerAsk } from './tools/ask';
import { registerDatasourceTools } from './tools/datasources';
import { registerResultTools } from './tools/results';
import { registerVerifiedTools } from './tools/verified';

export const MCP_SERVER_NAME = 'nl2sql';

export function buildMcpServer(deps: McpDeps, caller: Caller, version: string): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version },
    {
      instructions:
        'Ask questions of SQL databases in plain words. Start with list_datasources; use ask for a question, ' +
        'get_result_page to read a whole result, and list_verified_queries / run_verified_query for reviewed queries.',
    },
  );
  registerAsk(server, deps, caller);
  registerDatasourceTools(server, deps, caller);
  registerResultTools(server, deps);
  registerVerifiedTools(server, deps, caller);
  return server;
}

/** Builds the MCP server of a caller over the engine services it injects. */
@Injectable()
export class McpServerFactory {
  private readonly deps: McpDeps;

  constructor(
    @Inject(ENGINE_CONFIG) config: EngineConfig,
    runs: RunService,
    datasources: DatasourceRegistry,
    results: ResultsService,
    verified: VerifiedQueries,
  ) {
    this.deps = { config, runs, datasources, results, verified };
  }

  build(caller: Caller): McpServer {
    return buildMcpServer(this.deps, caller, SERVICE_VERSION);
  }
}

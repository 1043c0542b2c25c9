/**
 * The MCP server of one caller: the service's tools over the engine, transport-free. HTTP builds
 * one per request (stateless, the caller's roles from the request); stdio builds one for the
 * process (the roles from `--role`). No admin operation is exposed.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
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

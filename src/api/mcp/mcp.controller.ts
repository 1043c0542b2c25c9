/**
 * The MCP endpoint, Streamable HTTP at `/mcp` on the service's own server. Stateless: each POST
 * gets its own MCP server and transport, built for the caller's roles (the same sources and the
 * same 401/403 as every other route), and answers on an event stream of its own (a tool's
 * progress, then its result); nothing is kept between requests, so
 * any instance behind a load balancer can answer. GET (a server-to-client stream) and DELETE (a
 * session's end) need sessions and answer 405. A client that goes away cancels its run.
 */
import { All, Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Response } from 'express';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine/engine-config';
import { EngineError, INTERNAL_DETAIL } from '../../engine/errors';
import { getLogger } from '../../engine/logging/logger';
import { ResultsService } from '../../engine/admin/results.service';
import { DatasourceRegistry } from '../../engine/datasources/registry';
import { RunService } from '../../engine/run/run-service';
import { VerifiedQueries } from '../../engine/verified/verified-queries';
import type { McpDeps } from './deps';
import { buildMcpServer } from './mcp-server';
import { AnyRole, type RequestWithRoles } from '../common/roles.guard';
import { SERVICE_VERSION } from '../../version';

const log = getLogger('nl2sql.mcp');

// JSON-RPC over one route: described in the README (MCP section), not in the OpenAPI document.
@ApiExcludeController()
@Controller('mcp')
export class McpController {
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

  @Post()
  @AnyRole()
  async handle(@Req() req: RequestWithRoles, @Res() res: Response): Promise<void> {
    const caller = { roles: req.caller?.roles ?? [], userId: req.caller?.userId ?? null };
    const server = buildMcpServer(this.deps, caller, SERVICE_VERSION);
    // Each POST's answer is an event stream, so a tool's progress notifications reach the client
    // before its result.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      log.error('MCP request failed', { error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) {
        res.status(500).json({
          jsonrpc: '2.0',
          error: { code: -32603, message: INTERNAL_DETAIL },
          id: null,
        });
      }
    }
  }

  @All()
  other(@Res() res: Response): never {
    res.setHeader('Allow', 'POST');
    throw new EngineError(
      'METHOD_NOT_ALLOWED',
      'this MCP endpoint is stateless: POST JSON-RPC messages; GET streams and DELETE sessions are not offered',
    );
  }
}

/**
 * The MCP endpoint, Streamable HTTP at `/mcp` on the service's own server. Stateless: each POST
 * gets its own MCP server and transport, built for the caller's roles (the same sources and the
 * same 401/403 as every other route), and answers on an event stream of its own (a tool's
 * progress, then its result); nothing is kept between requests, so
 * any instance behind a load balancer can answer. GET (a server-to-client stream) and DELETE (a
 * session's end) need sessions and answer 405. A client that goes away cancels its run.
 */
import { All, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Response } from 'express';
import { EngineError, INTERNAL_DETAIL } from '../../engine/errors';
import { getLogger } from '../../engine/logging/logger';
import { McpServerFactory } from './mcp-server';
import { AnyRole, type RequestWithRoles } from '../common/roles.guard';

const log = getLogger('nl2sql.mcp');

// JSON-RPC over one route: described in the README (MCP section), not in the OpenAPI document.
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  constructor(private readonly servers: McpServerFactory) {}

  @Post()
  @AnyRole()
  async handle(@Req() req: RequestWithRoles, @Res() res: Response): Promise<void> {
    const caller = {
      roles: req.caller?.roles ?? [],
      userId: req.caller?.userId ?? null,
      attributes: req.caller?.attributes ?? {},
    };
    const server = this.servers.build(caller);
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

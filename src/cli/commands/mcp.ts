/**
 * `nl2sql mcp [--role R]`: an MCP server on stdin/stdout over the same engine as the API, for
 * clients that start their servers as processes (Claude Desktop, IDE agents). The roles are the
 * process's: `--role` (repeatable), else the config's static `api.role`. Logs go to stderr, so
 * stdout carries only JSON-RPC. Ends when stdin closes or on SIGINT/SIGTERM.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpServerFactory } from '../../api/mcp/mcp-server';
import { McpToolsModule } from '../../api/mcp/mcp-tools.module';
import { KEEPS_RUNNING, UsageError, type CommandIo, type CommandOptions } from '../io';
import { commandRoles, withEngine } from '../with-engine';

export async function mcpCommand(
  args: readonly string[],
  options: CommandOptions,
  io: CommandIo,
): Promise<number> {
  if (args.length) throw new UsageError(`mcp takes no arguments (got ${args.join(' ')})`);
  return withEngine(
    options.env,
    io,
    async (engine, config) => {
      const caller = { roles: commandRoles(options.roles, config), userId: null };
      const server = engine.get(McpServerFactory).build(caller);
      let closing = false;
      const close = async () => {
        if (closing) return;
        closing = true;
        await server.close().catch(() => undefined);
        await engine.close();
        process.exit(0);
      };
      process.stdin.on('end', () => void close());
      process.on('SIGINT', () => void close());
      process.on('SIGTERM', () => void close());
      await server.connect(new StdioServerTransport());
      return KEEPS_RUNNING;
    },
    [McpToolsModule],
  );
}

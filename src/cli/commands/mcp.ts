/**
 * `nl2sql mcp [--role R]`: an MCP server on stdin/stdout over the same engine as the API, for
 * clients that start their servers as processes (Claude Desktop, IDE agents). The roles are the
 * process's: `--role` (repeatable), else the config's static `api.role`. Logs go to stderr, so
 * stdout carries only JSON-RPC. Ends when stdin closes or on SIGINT/SIGTERM.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { sendLogsToStderr } from '../../engine/logging/logger';
import { mcpDeps } from '../../api/mcp/deps';
import { buildMcpServer } from '../../api/mcp/mcp-server';
import { SERVICE_VERSION } from '../../version';
import { commandRoles, engineFromConfig, reportFailure } from '../engine-from-config';
import { KEEPS_RUNNING, UsageError, type CommandIo, type CommandOptions } from '../io';

export async function mcpCommand(
  args: readonly string[],
  options: CommandOptions,
  io: CommandIo,
): Promise<number> {
  if (args.length) throw new UsageError(`mcp takes no arguments (got ${args.join(' ')})`);
  sendLogsToStderr();
  let loaded;
  try {
    loaded = await engineFromConfig(options.env);
  } catch (err) {
    return reportFailure(io, err);
  }
  const { engine, config } = loaded;
  const caller = { roles: commandRoles(options.roles, config), userId: null };
  const server = buildMcpServer(mcpDeps(engine), caller, SERVICE_VERSION);
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
}

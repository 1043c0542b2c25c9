import { Module } from '@nestjs/common';
import { McpServerFactory } from './mcp-server';

/** MCP's tools without a transport: the HTTP endpoint imports it, and so does `nl2sql mcp` (stdio). */
@Module({ providers: [McpServerFactory], exports: [McpServerFactory] })
export class McpToolsModule {}

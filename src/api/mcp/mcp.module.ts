import { Module } from '@nestjs/common';
import { McpController } from './mcp.controller';
import { McpToolsModule } from './mcp-tools.module';

@Module({ imports: [McpToolsModule], controllers: [McpController] })
export class McpModule {}

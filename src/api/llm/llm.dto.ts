import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Body of PUT /api/v1/settings/llm: the whole llm section, checked exactly as the llm config file. */
export class LlmSectionDto {
  @ApiProperty({
    description:
      'alpha, beta, alpha_compatible, router, local_server (or openai, anthropic, openai_compatible, openrouter, ollama), or a plugin',
  })
  provider!: string;
  @ApiProperty() model!: string;
  @ApiPropertyOptional({ nullable: true, type: Number, default: 0 }) temperature?: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'A key or a ${source:key} reference; never returned',
  })
  api_key?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) base_url?: string | null;
  @ApiPropertyOptional({ nullable: true, enum: ['tool_calling', 'json_schema', 'json_mode'] })
  structured_output?: string | null;
  @ApiPropertyOptional({ default: 1 }) parse_retries?: number;
  @ApiPropertyOptional({ nullable: true, type: Number }) max_tokens?: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) timeout_s?: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) max_retries?: number | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Values may be references; masked',
  })
  headers?: Record<string, string>;
  @ApiPropertyOptional({ default: 'default' }) name?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'object' },
    description: 'Agent name to a partial override',
  })
  agents?: Record<string, Record<string, unknown>>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'object' },
    description: 'Model prices, USD per million tokens',
  })
  prices?: Record<string, Record<string, unknown>>;
}

export class AgentEntryDto {
  @ApiPropertyOptional({ nullable: true, type: String }) provider?: string | null;
  @ApiProperty() model!: string;
  @ApiProperty({ nullable: true, type: Number }) temperature!: number | null;
  @ApiProperty({ description: 'True when the agent sets nothing of its own and runs on default' })
  inherited!: boolean;
}

export class LlmListDto {
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/AgentEntryDto' } })
  llms!: Record<string, AgentEntryDto>;
}

export class LlmChangeDto {
  @ApiProperty({ type: 'object', additionalProperties: true, example: { via: 'api', roles: ['admin'] } })
  by!: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { old: { type: 'string', nullable: true }, new: { type: 'string', nullable: true } },
    },
    example: { default: { old: 'openai/gpt-4.1-mini', new: 'anthropic/claude-sonnet-4-5' } },
  })
  changes!: Record<string, { old: string | null; new: string | null }>;
}

/**
 * The query routes' wire shapes for validation and for /openapi.json. They mirror
 * src/engine/pipeline/wire.ts, the engine's own result type, which the routes return unchanged.
 */
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';

const obj = { type: 'object', additionalProperties: true } as const;

export class QueryRequest {
  @ApiProperty({
    description: "The user's question (not blank)",
    example: 'How many orders were placed last month?',
    minLength: 1,
    maxLength: 4000,
    pattern: '\\S',
  })
  @IsString()
  // Empty or white space alone is no question: refused here rather than sent to the model.
  @Matches(/\S/, { message: 'natural_language must not be blank' })
  @MaxLength(4000)
  natural_language!: string;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'Datasource override' })
  @IsOptional()
  @IsString()
  datasource_id?: string | null;

  @ApiPropertyOptional({ default: true, description: 'Execute the SQL against the datasource' })
  @IsOptional()
  @IsBoolean()
  execute?: boolean;

  @ApiPropertyOptional({
    ...obj,
    nullable: true,
    description:
      'Ignored unless api.trust_body_role is true; then an RBAC payload holding a list under `roles`',
  })
  @IsOptional()
  @IsObject()
  user_context?: Record<string, unknown> | null;
}

export class ValidationCheckDto {
  @ApiProperty() name!: string;
  @ApiProperty() passed!: boolean;
  @ApiProperty() message!: string;
}

export class RowSampleDto {
  @ApiProperty({ type: [String] }) columns!: string[];
  @ApiProperty({ type: 'array', items: { type: 'array', items: {} } }) rows!: unknown[][];
  @ApiProperty() total_rows!: number;
}

export class SubQueryResponseDto {
  @ApiPropertyOptional() id?: string;
  @ApiPropertyOptional() intent?: string;
  @ApiPropertyOptional({ nullable: true, type: String }) sql?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) datasource_id?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) schema_version?: string | null;
  @ApiPropertyOptional({ ...obj, nullable: true, description: 'The validated plan' }) plan?: Record<
    string,
    unknown
  > | null;
  @ApiPropertyOptional({ type: [ValidationCheckDto] }) validation?: ValidationCheckDto[];
  @ApiPropertyOptional({ type: RowSampleDto, nullable: true }) rows?: RowSampleDto | null;
  @ApiPropertyOptional({ enum: ['success', 'error', 'dropped'] }) status?: string;
  @ApiPropertyOptional() retry_count?: number;
  @ApiPropertyOptional({ enum: ['llm', 'cache', 'verified', 'supplied', 'approved', 'chosen'] })
  plan_source?: string;
  @ApiPropertyOptional({ nullable: true, type: Number }) row_cap?: number | null;
  @ApiPropertyOptional() truncated?: boolean;
}

export class FinalAnswerDto {
  @ApiProperty() summary!: string;
  @ApiProperty({ enum: ['text', 'table', 'number', 'list', 'empty', 'error'] }) format_type!: string;
  @ApiProperty() content!: string;
  @ApiProperty({ type: [String] }) warnings!: string[];
  @ApiProperty() truncated!: boolean;
}

export class PipelineErrorDto {
  @ApiProperty() node!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ example: 'PROVIDER_AUTH_FAILED' }) error_code!: string;
  @ApiProperty({ example: 'ERROR' }) severity!: string;
  @ApiProperty({ nullable: true, type: String }) provider!: string | null;
  @ApiProperty({ nullable: true, description: 'The provider answer, keys redacted' })
  provider_response!: unknown;
}

export class RunWarningDto {
  @ApiProperty() code!: string;
  @ApiProperty() node!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ nullable: true, type: String }) sub_query_id!: string | null;
  @ApiProperty({ ...obj, nullable: true }) detail!: Record<string, unknown> | null;
}

export class ArtifactRefDto {
  @ApiProperty() uri!: string;
  @ApiProperty({ example: 'parquet' }) format!: string;
  @ApiProperty() row_count!: number;
  @ApiProperty({ type: [String] }) columns!: string[];
}

export class ResultSummaryDto {
  @ApiProperty() node_id!: string;
  @ApiProperty({ type: [String] }) columns!: string[];
  @ApiProperty() row_count!: number;
  @ApiProperty() truncated!: boolean;
}

export class AnswerSourceDto {
  @ApiProperty({ enum: ['verified', 'generated'] }) type!: string;
  @ApiProperty({ nullable: true, type: String }) id!: string | null;
  @ApiProperty({ nullable: true, type: String }) datasource_id!: string | null;
  @ApiProperty({ ...obj, nullable: true }) params!: Record<string, unknown> | null;
}

/** Token and time figures shared by a usage record and a single call. */
class TokenFiguresDto {
  @ApiProperty() input_tokens!: number;
  @ApiProperty() cached_input_tokens!: number;
  @ApiProperty() cache_write_input_tokens!: number;
  @ApiProperty() output_tokens!: number;
  @ApiProperty() reasoning_tokens!: number;
  @ApiProperty() total_tokens!: number;
  @ApiProperty() latency_s!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'USD; null when a model has no price' })
  cost!: number | null;
}

export class UsageRecordDto extends TokenFiguresDto {
  @ApiProperty() calls!: number;
}

export class CallRecordDto extends TokenFiguresDto {
  @ApiProperty() node!: string;
  @ApiProperty() model!: string;
  @ApiProperty() usage_reported!: boolean;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
}

export class QuestionUsageDto {
  @ApiProperty({ type: UsageRecordDto }) total!: UsageRecordDto;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/UsageRecordDto' } })
  nodes!: Record<string, UsageRecordDto>;
  @ApiProperty({ type: [CallRecordDto] }) calls!: CallRecordDto[];
  @ApiProperty() plan_cache_hits!: number;
}

export class QueryResponseDto {
  @ApiPropertyOptional({ type: [SubQueryResponseDto] }) sub_queries?: SubQueryResponseDto[];
  @ApiPropertyOptional({ type: FinalAnswerDto, nullable: true }) final_answer?: FinalAnswerDto | null;
  @ApiPropertyOptional({ type: [PipelineErrorDto] }) errors?: PipelineErrorDto[];
  @ApiPropertyOptional({ description: 'Trace id; the request_id of the result routes' }) trace_id?: string;
  @ApiPropertyOptional({ type: 'array', items: obj }) reasoning?: Record<string, unknown>[];
  @ApiPropertyOptional({ type: [RunWarningDto] }) warnings?: RunWarningDto[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ArtifactRefDto) },
  })
  artifact_refs?: Record<string, ArtifactRefDto>;
  @ApiPropertyOptional({ enum: ['success', 'error', 'plan_only'] }) status?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: 'Seconds per node',
  })
  timings?: Record<string, number>;
  @ApiPropertyOptional({ type: QuestionUsageDto }) usage?: QuestionUsageDto;
  @ApiPropertyOptional({ nullable: true, type: String }) trace_path?: string | null;
  @ApiPropertyOptional() truncated?: boolean;
  @ApiPropertyOptional({ type: [ResultSummaryDto] }) result_manifest?: ResultSummaryDto[];
  @ApiPropertyOptional({ type: AnswerSourceDto }) source?: AnswerSourceDto;
}

export class ResultPageQuery {
  @ApiPropertyOptional({ default: 0, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;

  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000, description: 'Above 1000 is cut to 1000' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit?: number;
}

export class ResultPageDto {
  @ApiProperty() request_id!: string;
  @ApiProperty() result_id!: string;
  @ApiProperty({ type: [String] }) columns!: string[];
  @ApiProperty({ type: 'array', items: { type: 'array', items: {} } }) rows!: unknown[][];
  @ApiProperty() offset!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total_rows!: number;
  @ApiProperty({ nullable: true, type: Number }) next_offset!: number | null;
}

export class StreamEventDto {
  @ApiProperty({ example: 'run.started' }) name!: string;
  @ApiProperty() at!: string;
  @ApiProperty() trace_id!: string;
  @ApiProperty({ nullable: true, type: String }) tenant_id!: string | null;
  @ApiProperty(obj) data!: Record<string, unknown>;
}

/**
 * The query routes' wire shapes for validation and for /openapi.json. They mirror
 * src/engine/run/query-response.ts, the engine's own result type, which the routes return unchanged.
 */
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';

import { ERROR_CODE_SCHEMA } from '../common/error-body.dto';
import { DEMO_DATASOURCE_ID, DEMO_QUESTION } from './query.examples';

const obj = { type: 'object', additionalProperties: true } as const;

export class QueryRequest {
  @ApiProperty({
    description: "The user's question (not blank)",
    example: DEMO_QUESTION,
    minLength: 1,
    maxLength: 4000,
    pattern: '\\S',
  })
  @IsString()
  // Empty or white space alone is no question: refused here rather than sent to the model.
  @Matches(/\S/, { message: 'natural_language must not be blank' })
  @MaxLength(4000)
  natural_language!: string;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description:
      'Answer from this datasource instead of letting the service choose one (GET /api/v1/datasource lists them)',
    example: DEMO_DATASOURCE_ID,
  })
  @IsOptional()
  @IsString()
  datasource_id?: string | null;

  // No `default` keyword: generators make a field with a default required, and this one may be left out.
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'Execute the SQL against the datasource; false plans and compiles only (`status: plan_only`). Default true',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  execute?: boolean;

  @ApiPropertyOptional({
    ...obj,
    nullable: true,
    description:
      'Ignored unless api.trust_body_role is true; then an RBAC payload holding a list under `roles` (and optionally ' +
      '`user_id`, and `attributes`: an object of strings, the caller attributes row filters read as `:user.<name>`, ' +
      'only names declared in api.attributes)',
    example: { roles: ['analyst'] },
  })
  @IsOptional()
  @IsObject()
  user_context?: Record<string, unknown> | null;
}

export class ValidationCheckDto {
  @ApiProperty({ example: 'schema' }) name!: string;
  @ApiProperty() passed!: boolean;
  @ApiProperty() message!: string;
}

export class RowSampleDto {
  @ApiProperty({ type: [String] }) columns!: string[];
  @ApiProperty({ type: 'array', items: { type: 'array', items: {} }, description: 'Rows in column order' })
  rows!: unknown[][];
  @ApiProperty({ type: 'integer', description: 'Rows in the whole result, not only in this sample' })
  total_rows!: number;
}

export class PolicyAppliedDto {
  @ApiProperty({
    enum: ['row_filter', 'mask', 'model_sees'],
    enumName: 'PolicyKind',
    description:
      "`row_filter`: a role's row filter on a table the sub-query reads; `mask`: a column it reads masked; " +
      '`model_sees`: what the answer model was given of the result',
  })
  kind!: string;
  @ApiProperty({
    description:
      '`<datasource>.<table>`, `<datasource>.<table>.<column>`, or for model_sees its level (`aggregates`, `none`)',
    example: 'shop.orders',
  })
  target!: string;
  @ApiProperty({ description: 'The role whose policy it is', example: 'sales_rep' })
  role!: string;
}

export class SubQueryResponseDto {
  @ApiProperty({ example: 'sq1' }) id!: string;
  @ApiProperty({ description: 'What this sub-query answers' }) intent!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "Display SQL with values inlined; a verified query's own SQL with its `:name` placeholders",
  })
  sql!: string | null;
  @ApiProperty({ nullable: true, type: String }) datasource_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Schema version used for planning' })
  schema_version!: string | null;
  @ApiProperty({ ...obj, nullable: true, description: 'The validated plan (null for a verified query)' })
  plan!: Record<string, unknown> | null;
  @ApiProperty({ type: [ValidationCheckDto] }) validation!: ValidationCheckDto[];
  @ApiProperty({ type: RowSampleDto, nullable: true, description: 'Capped sample; null when nothing ran' })
  rows!: RowSampleDto | null;
  @ApiProperty({
    enum: ['success', 'error', 'dropped'],
    enumName: 'SubQueryStatus',
    description: '`dropped`: a sub-query hook refused it, so it did not run',
  })
  status!: string;
  @ApiProperty({ type: 'integer', description: 'Plan/SQL refinement attempts made' }) retry_count!: number;
  @ApiProperty({
    enum: ['llm', 'cache', 'verified', 'supplied', 'approved', 'chosen'],
    enumName: 'PlanSource',
    description:
      'Where the plan came from. This service produces `llm` (the planner model), `cache` (the plan cache; ' +
      'still validated and executed) and `verified` (a verified query answered; no plan). `supplied`, ' +
      '`approved` and `chosen` are reserved by the spec for pinned plans and are not produced by this version.',
  })
  plan_source!: string;
  @ApiProperty({
    nullable: true,
    type: 'integer',
    description: "Row limit that bounded this sub-query's SQL; null when the plan's own LIMIT was smaller",
  })
  row_cap!: number | null;
  @ApiProperty({ description: 'True when the result reached `row_cap`, so rows may be missing' })
  truncated!: boolean;
  @ApiProperty({
    type: [PolicyAppliedDto],
    description:
      "The caller's row filters, column masks and model restriction that shaped this sub-query (empty when none did); the filters are in `sql`",
  })
  policies_applied!: PolicyAppliedDto[];
}

export class FinalAnswerDto {
  @ApiProperty() summary!: string;
  @ApiProperty({
    enum: ['text', 'table', 'number', 'list', 'empty', 'error'],
    enumName: 'FormatType',
    description: 'How to show `content`',
  })
  format_type!: string;
  @ApiProperty({ description: 'The answer body, e.g. a Markdown table for `table`' }) content!: string;
  @ApiProperty({ type: [String] }) warnings!: string[];
  @ApiProperty() truncated!: boolean;
}

export class PipelineErrorDto {
  @ApiProperty({ description: 'The step that failed', example: 'ast_planner' }) node!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ ...ERROR_CODE_SCHEMA, example: 'PROVIDER_UNAVAILABLE' }) error_code!: string;
  @ApiProperty({ enum: ['ERROR', 'WARNING'] }) severity!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Set for a `PROVIDER_*` code, else null' })
  provider!: string | null;
  @ApiProperty({
    nullable: true,
    description: 'The provider answer, keys redacted; set for a `PROVIDER_*` code, else null',
  })
  provider_response!: unknown;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'The sub-query it belongs to, if any' })
  sub_query_id?: string | null;
}

export class RunWarningDto {
  @ApiProperty() code!: string;
  @ApiProperty() node!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ nullable: true, type: String }) sub_query_id!: string | null;
  @ApiProperty({ ...obj, nullable: true }) detail!: Record<string, unknown> | null;
}

export class ArtifactRefDto {
  @ApiProperty({ description: 'Where the whole result is stored on the server' }) uri!: string;
  @ApiProperty({ example: 'parquet' }) format!: string;
  @ApiProperty({ type: 'integer' }) row_count!: number;
  @ApiProperty({ type: [String] }) columns!: string[];
}

export class ResultSummaryDto {
  @ApiProperty({ description: 'The `result_id` of the result routes' }) node_id!: string;
  @ApiProperty({ type: [String] }) columns!: string[];
  @ApiProperty({ type: 'integer', description: 'Rows in the whole result' }) row_count!: number;
  @ApiProperty({ description: 'A sub-query feeding it was cut at its row limit' }) truncated!: boolean;
}

export class AnswerSourceDto {
  @ApiProperty({ enum: ['verified', 'generated'] }) type!: string;
  @ApiProperty({ nullable: true, type: String, description: "The verified query's id; null for `generated`" })
  id!: string | null;
  @ApiProperty({ nullable: true, type: String }) datasource_id!: string | null;
  @ApiProperty({ ...obj, nullable: true, description: 'The values a verified query ran with' })
  params!: Record<string, unknown> | null;
}

/** Token and time figures shared by a usage record and a single call. */
class TokenFiguresDto {
  @ApiProperty({ type: 'integer' }) input_tokens!: number;
  @ApiProperty({ type: 'integer' }) cached_input_tokens!: number;
  @ApiProperty({ type: 'integer' }) cache_write_input_tokens!: number;
  @ApiProperty({ type: 'integer' }) output_tokens!: number;
  @ApiProperty({ type: 'integer' }) reasoning_tokens!: number;
  @ApiProperty({ type: 'integer' }) total_tokens!: number;
  @ApiProperty() latency_s!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'USD; null when a model has no price' })
  cost!: number | null;
}

export class UsageRecordDto extends TokenFiguresDto {
  @ApiProperty({ type: 'integer' }) calls!: number;
}

export class CallRecordDto extends TokenFiguresDto {
  @ApiProperty() node!: string;
  @ApiProperty() model!: string;
  @ApiProperty({ description: 'False when the provider sent no usage (figures zero, cost null)' })
  usage_reported!: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'The error code of a failed call, else null' })
  error!: string | null;
}

@ApiExtraModels(UsageRecordDto)
export class QuestionUsageDto {
  @ApiProperty({ type: UsageRecordDto }) total!: UsageRecordDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(UsageRecordDto) },
    description: 'Usage per node name',
  })
  nodes!: Record<string, UsageRecordDto>;
  @ApiProperty({ type: [CallRecordDto] }) calls!: CallRecordDto[];
  @ApiProperty({ type: 'integer', description: 'Plans served from the plan cache' }) plan_cache_hits!: number;
}

/** Every field is always present in the answer (the spec allows leaving them out; this service never does). */
@ApiExtraModels(ArtifactRefDto)
export class QueryResponseDto {
  @ApiProperty({ type: [SubQueryResponseDto], description: 'One per decomposed sub-query' })
  sub_queries!: SubQueryResponseDto[];
  @ApiProperty({
    type: FinalAnswerDto,
    nullable: true,
    description: 'Null when the run ended without an answer',
  })
  final_answer!: FinalAnswerDto | null;
  @ApiProperty({ type: [PipelineErrorDto], description: 'Pipeline failures; the HTTP status stays 200' })
  errors!: PipelineErrorDto[];
  @ApiProperty({ description: 'Trace id; the `request_id` of the result routes' }) trace_id!: string;
  @ApiProperty({ type: 'array', items: obj }) reasoning!: Record<string, unknown>[];
  @ApiProperty({ type: [RunWarningDto] }) warnings!: RunWarningDto[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ArtifactRefDto) },
    description: 'Result artifacts keyed by execution node id',
  })
  artifact_refs!: Record<string, ArtifactRefDto>;
  @ApiProperty({
    enum: ['success', 'error', 'plan_only'],
    enumName: 'RunStatus',
    description: '`plan_only` when `execute` was false; `error` with entries in `errors`',
  })
  status!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description: 'Wall-clock seconds per node',
  })
  timings!: Record<string, number>;
  @ApiProperty({ type: QuestionUsageDto }) usage!: QuestionUsageDto;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "Where the run's trace was written on the server",
  })
  trace_path!: string | null;
  @ApiProperty({ description: "True when any sub-query's result was cut at its row limit" })
  truncated!: boolean;
  @ApiProperty({
    type: [ResultSummaryDto],
    description: 'One per saved result; empty when nothing was saved (`execute` false, or an early failure)',
  })
  result_manifest!: ResultSummaryDto[];
  @ApiProperty({ type: AnswerSourceDto }) source!: AnswerSourceDto;
}

export class ResultPageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'First row to return. Default 0' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Page size. Default 100; above 1000 it is cut to 1000 (the answer says which)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit?: number;
}

export class ResultPageDto {
  @ApiProperty({ description: "The run's `trace_id`" }) request_id!: string;
  @ApiProperty({ description: "A `node_id` from the run's `result_manifest`" }) result_id!: string;
  @ApiProperty({ type: [String] }) columns!: string[];
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: {} },
    description: '`rows[i]` is row `offset + i`',
  })
  rows!: unknown[][];
  @ApiProperty({ type: 'integer' }) offset!: number;
  @ApiProperty({ type: 'integer', description: 'Page size used, after the cap' }) limit!: number;
  @ApiProperty({ type: 'integer' }) total_rows!: number;
  @ApiProperty({
    nullable: true,
    type: 'integer',
    description: 'Where the next page starts; null when this page reaches the end',
  })
  next_offset!: number | null;
}

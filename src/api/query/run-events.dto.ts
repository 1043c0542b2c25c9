/**
 * The stream's events for /openapi.json: one schema per event, each the envelope
 * `{name, at, trace_id, tenant_id, data}` with its own `name` and `data`, joined in the `RunEvent`
 * union keyed by `name` (spec 6; the engine's own type is RunEventMap in engine/events/run-events.ts).
 */
import { type Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { RunEventName } from '../../engine/events/run-events';
import { ERROR_CODE_SCHEMA } from '../common/error-body.dto';
import { QueryResponseDto, ResultSummaryDto } from './query.dto';

const obj = { type: 'object', additionalProperties: true } as const;

export class RunStartedData {
  @ApiProperty() question!: string;
  @ApiProperty({ nullable: true, type: String }) user_id!: string | null;
  @ApiProperty() tenant_id!: string;
  @ApiProperty({ type: [String] }) roles!: string[];
  @ApiProperty({ nullable: true, type: String }) datasource_id!: string | null;
  @ApiProperty() execute!: boolean;
  @ApiProperty({
    type: [String],
    description: "Names of the caller's attributes (api.attribute_header), which row filters read; sorted",
  })
  attributes!: string[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Their values; only when api.event_attribute_values is true',
  })
  attribute_values?: Record<string, string>;
}

export class NodeStartedData {
  @ApiProperty({ example: 'ast_planner' }) node!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Set for the per-sub-query steps' })
  sub_query_id!: string | null;
}

export class NodeFinishedData extends NodeStartedData {
  @ApiProperty() seconds!: number;
  @ApiProperty({ description: 'False when the step raised' }) ok!: boolean;
}

export class ResultManifestData {
  @ApiProperty({ type: [ResultSummaryDto], description: 'Equals the final `result_manifest`' })
  results!: ResultSummaryDto[];
}

export class AnswerDeltaData {
  @ApiProperty({ enum: ['summary', 'content'] }) field!: string;
  @ApiProperty({
    description: "Next piece; a field's pieces joined in order equal that field of `final_answer`",
  })
  text!: string;
}

export class SanityFlaggedData {
  @ApiProperty() check!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ nullable: true, type: String }) sub_query_id!: string | null;
  @ApiProperty({ ...obj, nullable: true }) detail!: Record<string, unknown> | null;
}

export class RunLimitReachedData {
  @ApiProperty({ enum: ['max_cost_usd', 'max_model_calls'] }) limit!: string;
  @ApiProperty({ description: 'The configured cap' }) value!: number;
  @ApiProperty({ description: 'What the run had used when it stopped' }) used!: number;
  @ApiProperty() node!: string;
}

export class RunFinishedData {
  @ApiProperty({
    enum: ['success', 'error', 'plan_only'],
    enumName: 'RunStatus',
    description: 'As `result.status`',
  })
  status!: string;
  @ApiProperty() duration_s!: number;
  @ApiProperty({ type: 'integer' }) sub_queries!: number;
  @ApiProperty({ type: 'integer', description: 'Entries in `result.errors`' }) errors!: number;
  @ApiProperty({ nullable: true, type: String }) user_id!: string | null;
  @ApiProperty({ type: [String] }) roles!: string[];
  @ApiProperty({ type: QueryResponseDto, description: 'Exactly what POST /api/v1/query returns' })
  result!: QueryResponseDto;
}

export class RunFailedData {
  @ApiProperty({ description: 'Key redacted' }) message!: string;
  @ApiProperty({ ...ERROR_CODE_SCHEMA, example: 'INTERNAL_ERROR' }) error_code!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) user_id?: string | null;
  @ApiPropertyOptional({ type: [String] }) roles?: string[];
}

/** One event class per name: the envelope with `name` fixed and `data` typed. */
function runEvent(name: RunEventName, data: Type<unknown>, when: string): Type<unknown> {
  class Envelope {
    @ApiProperty({ enum: [name], description: when }) name!: string;
    @ApiProperty({ format: 'date-time', description: 'UTC timestamp' }) at!: string;
    @ApiProperty({ description: "The run's trace id (the `request_id` of the result routes)" })
    trace_id!: string;
    @ApiProperty({ nullable: true, type: String }) tenant_id!: string | null;
    @ApiProperty({ type: data }) data!: unknown;
  }
  const schemaName = name
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  Object.defineProperty(Envelope, 'name', { value: `${schemaName}Event` });
  return Envelope;
}

/** Every event of the stream, in the order a run can send them (the spec's table). */
export const RUN_EVENTS: Record<RunEventName, Type<unknown>> = {
  'run.started': runEvent('run.started', RunStartedData, 'The run began; always first'),
  'node.started': runEvent('node.started', NodeStartedData, 'A pipeline step began'),
  'node.finished': runEvent('node.finished', NodeFinishedData, 'A pipeline step ended'),
  'result.manifest': runEvent(
    'result.manifest',
    ResultManifestData,
    'The results are saved; page them with this trace_id as request_id',
  ),
  'answer.delta': runEvent('answer.delta', AnswerDeltaData, "Next piece of the answer's summary or content"),
  'sanity.flagged': runEvent('sanity.flagged', SanityFlaggedData, "A sanity check's finding"),
  'run.limit_reached': runEvent('run.limit_reached', RunLimitReachedData, 'A cost or call cap was reached'),
  'run.finished': runEvent('run.finished', RunFinishedData, 'Last event of a run that finished'),
  'run.failed': runEvent('run.failed', RunFailedData, 'Last event of a run that could not finish'),
};

/** The union, added to components.schemas as `RunEvent` (Nest has no decorator for a named oneOf). */
export function runEventUnionSchema(): SchemaObject {
  const refs = Object.entries(RUN_EVENTS).map(([name, cls]) => [name, getSchemaPath(cls)] as const);
  return {
    description:
      'One Server-Sent Event: the `event:` line carries `name`, the `data:` line this envelope as JSON. ' +
      'A stream ends with exactly one `run.finished` or `run.failed`.',
    oneOf: refs.map(([, $ref]) => ({ $ref })),
    discriminator: { propertyName: 'name', mapping: Object.fromEntries(refs) },
  };
}

/** The feedback routes' wire shapes, for validation and for /openapi.json. */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

const obj = { type: 'object', additionalProperties: true } as const;

export class FeedbackRequest {
  @ApiProperty({ enum: ['up', 'down'], description: 'Was the answer right?', example: 'up' })
  @IsIn(['up', 'down'], { message: "rating must be 'up' or 'down'" })
  rating!: 'up' | 'down';

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    maxLength: 4000,
    description: 'Why, in words',
    example: 'Right numbers, but I wanted them per month',
  })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  comment?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    maxLength: 20000,
    description:
      "The SQL that answers the question, in the run's datasource dialect: one SELECT, checked like a planner's SQL " +
      "draft (imported into a plan, validated against the schema and the caller's roles) before it is stored. " +
      'An admin may turn it into a verified query (GET /api/v1/verified-queries/suggestions).',
    example: "SELECT count(*) AS orders FROM orders WHERE status <> 'cancelled'",
  })
  @IsOptional()
  @IsString()
  @Matches(/\S/, { message: 'corrected_sql must not be blank' })
  @MaxLength(20000)
  corrected_sql?: string | null;
}

export class FeedbackResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ description: 'The id of the stored rating', example: '5b2e0c0e3f6a4d7c9a1b2c3d4e5f6a7b' })
  feedback_id!: string;
  @ApiProperty({ description: 'The rated run (its trace_id)' }) request_id!: string;
  @ApiProperty() message!: string;
}

export class RatedSubQueryDto {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'What the sub-query answers' }) intent!: string;
  @ApiProperty({ nullable: true, type: String }) datasource_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) schema_version!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The SQL the response showed' }) sql!:
    string | null;
  @ApiProperty({ ...obj, nullable: true, description: 'The plan that ran (null for a verified query)' })
  plan!: Record<string, unknown> | null;
  @ApiProperty({ nullable: true, type: String }) plan_source!: string | null;
  @ApiProperty({ nullable: true, type: String }) status!: string | null;
}

export class RatedRunSourceDto {
  @ApiProperty({ example: 'generated' }) type!: string;
  @ApiProperty({ nullable: true, type: String }) id!: string | null;
}

export class RatedRunDto {
  @ApiProperty() question!: string;
  @ApiProperty({ type: [String], description: 'The roles that asked' }) roles!: string[];
  @ApiProperty({ nullable: true, type: String }) user_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) status!: string | null;
  @ApiProperty({ type: RatedRunSourceDto, nullable: true }) source!: RatedRunSourceDto | null;
  @ApiProperty({ type: [RatedSubQueryDto] }) sub_queries!: RatedSubQueryDto[];
}

export class FeedbackByDto {
  @ApiProperty({ type: [String] }) roles!: string[];
  @ApiProperty({ nullable: true, type: String }) user_id!: string | null;
}

export class FeedbackEntryDto {
  @ApiProperty() id!: string;
  @ApiProperty() request_id!: string;
  @ApiProperty({ enum: ['up', 'down'] }) rating!: string;
  @ApiProperty({ nullable: true, type: String }) comment!: string | null;
  @ApiProperty({ nullable: true, type: String }) corrected_sql!: string | null;
  @ApiProperty({ ...obj, nullable: true, description: 'The correction as a plan' })
  corrected_plan!: Record<string, unknown> | null;
  @ApiProperty({ nullable: true, type: String }) corrected_datasource_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: FeedbackByDto, description: 'Who rated' }) by!: FeedbackByDto;
  @ApiProperty({ type: RatedRunDto, description: 'The rated run, from its trace' }) run!: RatedRunDto;
}

export class FeedbackList {
  @ApiProperty({ type: [FeedbackEntryDto] }) feedback!: FeedbackEntryDto[];
}

export class FeedbackListQuery {
  @ApiPropertyOptional({ description: "Only this run's ratings" })
  @IsOptional()
  @IsString()
  request_id?: string;
}

/** The verified-queries routes' wire shapes, for /openapi.json. The engine checks the body itself. */
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

export class VerifiedParamDto {
  @ApiProperty({ enum: ['string', 'integer', 'number', 'boolean', 'date'] }) type!: string;
  @ApiPropertyOptional({ description: 'What the value is; name the column and an example value' })
  description?: string;
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
    description: 'A value it may take, of its type (nl2sql eval asks the question with it)',
  })
  example?: string | number | boolean;
}

const PARAMS = {
  type: 'object',
  additionalProperties: { $ref: getSchemaPath('VerifiedParamDto') },
  description: 'Each `:name` placeholder of the SQL, typed',
} as const;

/** Body of POST /api/v1/verified-queries: a `verified_queries` entry of the config file. */
export class VerifiedQueryRequest {
  @ApiProperty({ description: 'Letters, digits, _ and - (at most 64)', example: 'orders_in_country' })
  id!: string;
  @ApiProperty({ example: 'demo' }) datasource_id!: string;
  @ApiProperty({
    description: 'The question it answers; `:name` marks where a parameter value goes',
    example: 'How many orders came from :country?',
  })
  question!: string;
  @ApiPropertyOptional({ type: [String], example: ['Number of orders placed from :country'] })
  paraphrases?: string[];
  @ApiProperty({
    description: "One SELECT in the datasource's dialect with `:name` placeholders",
    example:
      "SELECT count(*) AS orders FROM orders o JOIN customers cu ON cu.customer_id = o.customer_id JOIN countries co ON co.country_code = cu.country_code WHERE co.country_name = :country AND o.status <> 'cancelled'",
  })
  sql!: string;
  @ApiPropertyOptional({
    ...PARAMS,
    example: {
      country: { type: 'string', description: 'countries.country_name, e.g. Germany', example: 'Germany' },
    },
  })
  params?: Record<string, VerifiedParamDto>;
}

export class ListedVerifiedQueryDto {
  @ApiProperty() id!: string;
  @ApiProperty() datasource_id!: string;
  @ApiProperty() question!: string;
  @ApiProperty({ type: [String] }) paraphrases!: string[];
  @ApiProperty() sql!: string;
  @ApiProperty(PARAMS) params!: Record<string, VerifiedParamDto>;
  @ApiProperty({
    enum: ['config', 'runtime'],
    description: 'config: read-only; runtime: added through this API',
  })
  origin!: string;
  @ApiProperty({
    enum: ['enabled', 'disabled', 'unchecked'],
    description:
      'enabled: served; disabled: no longer passes its check against the schema (see reason), not served until it does; ' +
      'unchecked: its datasource has no schema yet',
  })
  status!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Why it is disabled' }) reason!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When it was added (runtime ones)',
  })
  created_at!: string | null;
}

export class VerifiedQueryList {
  @ApiProperty({ type: [ListedVerifiedQueryDto] }) verified_queries!: ListedVerifiedQueryDto[];
}

export class VerifiedQueryAdded {
  @ApiProperty() success!: boolean;
  @ApiProperty() message!: string;
  @ApiProperty({ type: ListedVerifiedQueryDto }) verified_query!: ListedVerifiedQueryDto;
}

export class VerifiedQueryRemoved {
  @ApiProperty() success!: boolean;
  @ApiProperty() message!: string;
  @ApiProperty() id!: string;
}

export class SuggestedVerifiedQueryDto {
  @ApiProperty({ description: 'A free id proposed from the question (change it if you like)' }) id!: string;
  @ApiProperty() datasource_id!: string;
  @ApiProperty({ description: 'The best attested question, its lifted values as `:name`' }) question!: string;
  @ApiProperty({ type: [String], description: 'The other questions with the same plan' })
  paraphrases!: string[];
  @ApiProperty({ description: 'The plan as SQL with `:name` placeholders' }) sql!: string;
  @ApiProperty(PARAMS) params!: Record<string, VerifiedParamDto>;
}

export class SuggestionRunDto {
  @ApiProperty() request_id!: string;
  @ApiProperty() question!: string;
  @ApiProperty({ enum: ['up', 'down'] }) rating!: string;
  @ApiProperty({ description: "The candidate is this rating's corrected_sql" }) corrected!: boolean;
  @ApiProperty({ format: 'date-time' }) rated_at!: string;
}

export class SuggestionRatingsDto {
  @ApiProperty() up!: number;
  @ApiProperty() down!: number;
}

export class SuggestionPlanCacheDto {
  @ApiProperty({ description: 'Times the plan cache served this plan' }) hits!: number;
  @ApiProperty({ type: [String] }) questions!: string[];
}

export class SuggestionEvidenceDto {
  @ApiProperty({ type: [SuggestionRunDto] }) runs!: SuggestionRunDto[];
  @ApiProperty({ type: SuggestionRatingsDto }) ratings!: SuggestionRatingsDto;
  @ApiProperty({ description: 'Corrections (corrected_sql) with this plan' }) corrections!: number;
  @ApiProperty({ type: SuggestionPlanCacheDto }) plan_cache!: SuggestionPlanCacheDto;
}

export class SuggestionDto {
  @ApiProperty({ description: 'Stable while the suggested SQL stays the same' }) id!: string;
  @ApiProperty() datasource_id!: string;
  @ApiProperty({
    type: SuggestedVerifiedQueryDto,
    description: 'Accept it by sending this object to POST /api/v1/verified-queries',
  })
  verified_query!: SuggestedVerifiedQueryDto;
  @ApiProperty({ type: SuggestionEvidenceDto }) evidence!: SuggestionEvidenceDto;
}

export class SuggestionList {
  @ApiProperty({ type: [SuggestionDto] }) suggestions!: SuggestionDto[];
}

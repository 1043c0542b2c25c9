import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '../../engine/errors/error-code';

/** The closed list as one named schema, so generated clients get a string union to branch on. */
export const ERROR_CODE_SCHEMA = {
  enum: [...ERROR_CODES],
  enumName: 'ErrorCode',
} as const;

/** Body of every HTTP failure (4xx/5xx), always JSON, on every route (the stream and CSV routes too). */
export class ErrorBody {
  @ApiProperty({ description: 'What went wrong, for people', example: "unknown datasource 'sales'" })
  detail!: string;

  @ApiProperty({
    ...ERROR_CODE_SCHEMA,
    description: 'Stable code, for programs: branch on this, show `detail`',
    example: 'NOT_FOUND',
  })
  error_code!: ErrorCode;
}

import { ApiProperty } from '@nestjs/swagger';

/** Body of every HTTP failure (4xx/5xx). */
export class ErrorBody {
  @ApiProperty({ description: 'What went wrong, for people' })
  detail!: string;

  @ApiProperty({ description: 'Stable code, for programs', example: 'NOT_FOUND', nullable: true })
  error_code!: string | null;
}

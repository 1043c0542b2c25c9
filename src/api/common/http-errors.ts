/** HTTP failures carry a `detail` for people and an `error_code` for programs. */
import { HttpException, HttpStatus } from '@nestjs/common';

export class ApiHttpError extends HttpException {
  constructor(status: HttpStatus, code: string, detail: string) {
    super({ detail, error_code: code }, status);
  }
}

export const unauthorized = (detail: string) =>
  new ApiHttpError(HttpStatus.UNAUTHORIZED, 'ROLE_REQUIRED', detail);
export const forbidden = (detail: string) => new ApiHttpError(HttpStatus.FORBIDDEN, 'ROLE_FORBIDDEN', detail);

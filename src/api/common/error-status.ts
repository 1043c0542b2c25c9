/**
 * The one place where an engine error code becomes an HTTP status. Pipeline failures never come
 * here: they are data in `errors[]` of a 200 response.
 */
import { HttpStatus } from '@nestjs/common';

const STATUS_BY_CODE: Readonly<Record<string, HttpStatus>> = {
  NOT_FOUND: HttpStatus.NOT_FOUND,
  CONFIG_INVALID: HttpStatus.UNPROCESSABLE_ENTITY,
  REQUEST_INVALID: HttpStatus.UNPROCESSABLE_ENTITY,
  INVALID_PAGE_REQUEST: HttpStatus.UNPROCESSABLE_ENTITY,
  SECRET_UNRESOLVED: HttpStatus.UNPROCESSABLE_ENTITY,
  LLM_KEY_MISSING: HttpStatus.UNPROCESSABLE_ENTITY,
  LLM_PROVIDER_UNSUPPORTED: HttpStatus.UNPROCESSABLE_ENTITY,
  LLM_PROVIDER_NOT_INSTALLED: HttpStatus.UNPROCESSABLE_ENTITY,
  LLM_BASE_URL_REQUIRED: HttpStatus.UNPROCESSABLE_ENTITY,
  LLM_PLUGIN_INVALID: HttpStatus.UNPROCESSABLE_ENTITY,
};

/** Codes whose message is safe and useful to return; anything else gets a generic 500 detail. */
export function statusForCode(code: string | undefined): HttpStatus | null {
  return code ? (STATUS_BY_CODE[code] ?? null) : null;
}

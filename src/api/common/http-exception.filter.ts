/**
 * Maps every exception to an HTTP answer: engine errors through the one table (error-status.ts),
 * Nest's and Express's own HttpExceptions (unknown route, a body the parser or a pipe refused) as
 * `{detail, error_code}`, anything else a 500 with a generic detail while the stack goes to the
 * server log only. A response already started (an SSE stream) is never written again.
 */
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import { redact } from '../../config/redact';
import { getLogger } from '../../engine/logging/logger';
import { INTERNAL_DETAIL, isErrorCode, type ErrorCode } from '../../engine/errors';
import { httpErrorOf, type CodedError } from './error-status';
import { NOT_A_JSON_OBJECT } from './json-object-body.pipe';

const log = getLogger('nl2sql.http');

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request & { id?: string }>();
    if (res.headersSent) {
      log.error('error after the response started', { request_id: req.id, error: describe(exception) });
      if (!res.writableEnded) res.end();
      return;
    }
    const { status, body } = this.toHttp(exception, req);
    res.status(status).json(body);
  }

  private toHttp(exception: unknown, req: Request & { id?: string }): { status: number; body: object } {
    const unparsable = unparsableBody(exception);
    if (unparsable !== null) {
      return {
        status: HttpStatus.UNPROCESSABLE_ENTITY,
        body: { detail: redact(unparsable), error_code: 'REQUEST_INVALID' },
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
      const detail = Array.isArray(message)
        ? message.join('; ')
        : typeof message === 'string'
          ? message
          : exception.message;
      const code = httpCode(status);
      return { status, body: { detail: redact(detail), error_code: code } };
    }
    if (isCoded(exception)) {
      const { status, body, logged } = httpErrorOf(exception);
      if (logged)
        log.error('engine error', {
          request_id: req.id,
          error_code: body.error_code,
          error: describe(exception),
        });
      return { status, body };
    }
    log.error('unexpected failure', {
      request_id: req.id,
      method: req.method,
      path: req.path,
      error: describe(exception),
    });
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      body: { detail: INTERNAL_DETAIL, error_code: 'INTERNAL_ERROR' },
    };
  }
}

/**
 * A JSON body the parser refused, said plainly: spec section 2 answers an invalid body with 422,
 * and the parser's own words ("Unexpected token 'n', "null" is not valid JSON") blame valid JSON
 * when the body is a JSON value that is not an object.
 */
function unparsableBody(exception: unknown): string | null {
  const cause = exception instanceof HttpException ? exception.cause : exception;
  const failure = cause as { type?: unknown; body?: unknown; message?: unknown } | undefined;
  if (failure?.type !== 'entity.parse.failed') return null;
  const text = typeof failure.body === 'string' ? failure.body.trim() : '';
  if (text && !text.startsWith('{') && !text.startsWith('[')) {
    return NOT_A_JSON_OBJECT;
  }
  return `the request body is not valid JSON: ${String(failure.message)}`;
}

/** Nest's and Express's own HTTP errors, named by a code of the closed list. */
function httpCode(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'ROLE_REQUIRED';
    case 403:
      return 'ROLE_FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    default:
      return status < 500 ? 'REQUEST_INVALID' : 'INTERNAL_ERROR';
  }
}

function isCoded(e: unknown): e is CodedError {
  return e instanceof Error && isErrorCode((e as { code?: unknown }).code);
}

function describe(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}

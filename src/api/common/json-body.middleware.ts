/**
 * Every route of this API that takes a body takes JSON. A body sent as anything else (curl's `-d`
 * without a content type sends a form) is not parsed, and the route would report the fields it
 * found missing, which points the wrong way: it is refused here, naming the content type wanted.
 * Spec 2: an invalid body is HTTP 422.
 */
import type { NextFunction, Request, Response } from 'express';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!WITH_BODY.has(req.method) || !hasBody(req) || req.is(['application/json', '+json'])) {
    next();
    return;
  }
  const sent = (req.headers['content-type'] ?? 'none').slice(0, 100);
  res.status(422).json({
    detail: `the request body must be JSON sent with content-type: application/json (it came as ${sent})`,
    error_code: 'REQUEST_INVALID',
  });
}

/**
 * Every route of this API that takes a body takes JSON. A body sent as anything else (curl's `-d`
 * without a content type sends a form) is not parsed, and the route would report the fields it
 * found missing, which points the wrong way: it is refused here, naming the content type wanted.
 * Spec 2: an invalid body is HTTP 422 (written by the error filter, as every other error).
 */
import { UnprocessableEntityException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  // `req.is` answers null without a body and false for a body of another type; it counts an empty
  // body (content-length 0, as a bodiless POST sends) as a body, so that one is let through here.
  const json = req.is(['application/json', '+json']);
  if (!WITH_BODY.has(req.method) || json !== false || req.headers['content-length'] === '0') {
    next();
    return;
  }
  const sent = (req.headers['content-type'] ?? 'none').slice(0, 100);
  next(
    new UnprocessableEntityException(
      `the request body must be JSON sent with content-type: application/json (it came as ${sent})`,
    ),
  );
}

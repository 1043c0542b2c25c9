/** One log line per request, with a request id that is also returned as `X-Request-Id`. */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { getLogger } from '../../engine/logging/logger';

const log = getLogger('nl2sql.http');

export function requestLog(req: Request & { id?: string }, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  const incoming = req.headers['x-request-id'];
  req.id = typeof incoming === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', req.id);
  res.on('close', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    log.info(`${req.method} ${req.originalUrl.split('?')[0]} ${res.statusCode}`, {
      request_id: req.id,
      ms: Math.round(ms * 10) / 10,
      client: req.socket.remoteAddress,
    });
  });
  next();
}

/**
 * Counts HTTP requests by route template (`/api/v1/query/:request_id/results/:result_id`, never the
 * path itself, which holds ids) and status. A request no route matched is `unmatched`.
 */
import type { NextFunction, Request, Response } from 'express';
import type { EngineMetrics } from './engine-metrics';

export function httpMetrics(metrics: EngineMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('close', () => {
      const path = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched';
      const method = req.method;
      metrics.httpRequests.inc({ method, route, status: String(res.statusCode) });
      metrics.httpSeconds.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

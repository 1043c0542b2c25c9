/** GET /metrics: the Prometheus text format, served without a role like the health routes. */
import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { EngineMetrics } from './engine-metrics';

// Not in the OpenAPI document: it is for scrapers, in Prometheus' format, not for SDK clients.
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: EngineMetrics) {}

  @Get()
  async scrape(@Res() res: Response): Promise<void> {
    const body = await this.metrics.registry.metrics();
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(body);
  }
}

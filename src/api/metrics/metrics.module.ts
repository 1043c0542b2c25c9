import { Module } from '@nestjs/common';
import { EngineMetrics } from './engine-metrics';
import { MetricsController } from './metrics.controller';

@Module({ controllers: [MetricsController], providers: [EngineMetrics], exports: [EngineMetrics] })
export class MetricsModule {}

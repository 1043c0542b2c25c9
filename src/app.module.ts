import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ValidationPipe, HttpStatus } from '@nestjs/common';
import { invalidRequest } from './api/common/validation-messages';
import { DatasourceModule } from './api/datasource/datasource.module';
import { FeedbackModule } from './api/feedback/feedback.module';
import { HealthModule } from './api/health/health.module';
import { IndexingModule } from './api/indexing/indexing.module';
import { LlmModule } from './api/llm/llm.module';
import { McpModule } from './api/mcp/mcp.module';
import { MetricsModule } from './api/metrics/metrics.module';
import { PlaygroundModule } from './api/playground/playground.module';
import { QueryModule } from './api/query/query.module';
import { VerifiedQueriesModule } from './api/verified-queries/verified-queries.module';
import { HttpErrorFilter } from './api/common/http-exception.filter';
import { JsonObjectBodyPipe } from './api/common/json-object-body.pipe';

/** The route groups of spec 4, /metrics and /mcp; each is a thin module over the engine. */
const ROUTE_MODULES = [
  HealthModule,
  QueryModule,
  DatasourceModule,
  LlmModule,
  IndexingModule,
  PlaygroundModule,
  MetricsModule,
  McpModule,
  FeedbackModule,
  VerifiedQueriesModule,
];

@Module({})
export class AppModule {
  /** `engine` is EngineModule.forRoot(config, ...) (see engineModule in nest-context.ts). */
  static forRoot(engine: DynamicModule): DynamicModule {
    return {
      module: AppModule,
      imports: [engine, ...ROUTE_MODULES],
      providers: [
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        // Global pipes run in the order listed: the object check first, then the DTO's checks.
        { provide: APP_PIPE, useClass: JsonObjectBodyPipe },
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({
            errorHttpStatusCode: HttpStatus.UNPROCESSABLE_ENTITY,
            transform: true,
            whitelist: false,
            forbidUnknownValues: false,
            exceptionFactory: invalidRequest,
          }),
        },
      ],
    };
  }
}

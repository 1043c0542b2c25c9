/**
 * Makes one built Engine available to Nest providers. The engine is built outside Nest
 * (`Engine.create`) so that it is usable without HTTP and so that start-up can refuse to serve
 * before any module exists. Its pipeline steps are registered as providers too, one per step, so
 * Nest code (and tests using the testing module) can reach each step by its class.
 */
import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { Engine } from './engine';
import { AnswerSynthesizer } from './pipeline/nodes/answer-synthesizer';
import { AstPlanner } from './pipeline/nodes/ast-planner';
import { DatasourceResolver } from './pipeline/nodes/datasource-resolver';
import { Decomposer } from './pipeline/nodes/decomposer';
import { Executor } from './pipeline/nodes/executor';
import { Generator } from './pipeline/nodes/generator';
import { LogicalValidator } from './pipeline/nodes/logical-validator';
import { VerifiedResolver } from './pipeline/nodes/verified-resolver';
import { Pipeline } from './pipeline/pipeline';

@Global()
@Module({})
export class EngineModule {
  static forEngine(engine: Engine): DynamicModule {
    const p = engine.pipeline;
    const providers: Provider[] = [
      { provide: Engine, useValue: engine },
      { provide: Pipeline, useValue: p },
      { provide: DatasourceResolver, useValue: p.resolver },
      { provide: Decomposer, useValue: p.decomposer },
      { provide: VerifiedResolver, useValue: p.verifiedResolver },
      { provide: AstPlanner, useValue: p.planner },
      { provide: LogicalValidator, useValue: p.validator },
      { provide: Generator, useValue: p.generator },
      { provide: Executor, useValue: p.executor },
      { provide: AnswerSynthesizer, useValue: p.answer },
    ];
    return {
      module: EngineModule,
      providers,
      exports: providers.map((x) => (x as { provide: unknown }).provide as never),
    };
  }
}

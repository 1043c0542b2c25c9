/**
 * Makes one built Engine available to Nest providers. The engine is built outside Nest
 * (`Engine.create`) so that it is usable without HTTP and so that start-up can refuse to serve
 * before any module exists.
 */
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { Engine } from './engine';

@Global()
@Module({})
export class EngineModule {
  static forEngine(engine: Engine): DynamicModule {
    return { module: EngineModule, providers: [{ provide: Engine, useValue: engine }], exports: [Engine] };
  }
}

/**
 * The one place the engine's three hosts build their Nest context: the HTTP server (app.factory),
 * programmatic use (createEngine) and the command line (cli/with-engine). Each gets the same engine
 * module, wired as the service wires it (the demo database preparer, by configuration), and the
 * same Nest options: logs through the engine's logger, and a start that fails throws (so the host
 * reports it and closes what was opened) instead of exiting the process.
 */
import type { DynamicModule, INestApplicationContext, NestApplicationOptions, Type } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from './config/defaults';
import { DemoDatabasePreparer } from './demo';
import type { EngineOptions } from './engine/engine-config';
import { EngineModule } from './engine/engine.module';
import { NestLogBridge } from './engine/logging/nest-log-bridge';

/** The engine module with what the service wires by configuration (the demo database preparer). */
export function engineModule(config: AppConfig, options: EngineOptions = {}): DynamicModule {
  return EngineModule.forRoot(config, { preparers: [new DemoDatabasePreparer()], ...options });
}

/** The Nest options every host starts with. */
export function nestOptions(): NestApplicationOptions {
  return { logger: new NestLogBridge(), abortOnError: false };
}

/** The root of a context that holds the engine and modules beside it (e.g. MCP's tools for stdio). */
@Module({})
class EngineHostModule {}

/**
 * The engine in a Nest application context (no HTTP), with `beside` imported next to it. Building
 * it runs the engine's start-up checks; a failure closes what they opened and rejects.
 */
export function engineContext(
  config: AppConfig,
  options: EngineOptions = {},
  beside: readonly (Type | DynamicModule)[] = [],
): Promise<INestApplicationContext> {
  const engine = engineModule(config, options);
  const root = beside.length ? { module: EngineHostModule, imports: [engine, ...beside] } : engine;
  return NestFactory.createApplicationContext(root, nestOptions());
}

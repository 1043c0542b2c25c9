/**
 * Programmatic use without HTTP: the same engine module as the server, in a Nest application
 * context. Building it checks the datasources (and builds the demo database when the config asks
 * for it); a failure closes what was opened and rejects.
 *
 *   const engine = await createEngine({ datasources: [...], llm: {...} });
 *   const answer = await engine.ask('How many orders per country?', { roles: ['analyst'] });
 *   await engine.close();
 */
import 'reflect-metadata';
import { dirname, resolve } from 'node:path';
import type { INestApplicationContext, Type } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { loadConfig, parseConfig } from './config/loader';
import type { EngineOptions } from './engine/engine-config';
import type { RunEvent } from './engine/events/run-events';
import { engineContext } from './nest-context';
import { RunService } from './engine/run/run-service';
import type { RunRequest } from './engine/run/run-state';
import type { QueryResponse } from './engine/run/query-response';

/** A running engine: ask questions, follow runs, reach any engine service; close when done. */
export interface Engine {
  ask: RunService['ask'];
  run(request: RunRequest, signal?: AbortSignal): Promise<QueryResponse>;
  stream(request: RunRequest): Observable<RunEvent>;
  /** Any engine service or port by its class (DatasourceAdmin, IndexAdmin, ResultsService...). */
  get<T>(type: Type<T> | symbol): T;
  close(): Promise<void>;
}

export async function createEngine(
  config: Record<string, unknown> | string,
  options: EngineOptions = {},
): Promise<Engine> {
  const env = options.env ?? process.env;
  const loaded =
    typeof config === 'string'
      ? loadConfig({ ...env, NL2SQL_CONFIG: resolve(config) }, dirname(resolve(config))).config
      : parseConfig(config, 'configuration object', { baseDir: process.cwd() });
  return engineHandle(await engineContext(loaded, options));
}

/** The Engine interface over a Nest context holding the engine (an application context or the HTTP app). */
export function engineHandle(context: INestApplicationContext): Engine {
  const runs = context.get(RunService);
  return {
    ask: (question, opts) => runs.ask(question, opts),
    run: (request, signal) => runs.run(request, signal),
    stream: (request) => runs.stream(request),
    get: <T>(type: Type<T> | symbol) => context.get<T>(type),
    close: () => context.close(),
  };
}

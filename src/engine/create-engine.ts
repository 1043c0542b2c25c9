/**
 * Programmatic use without HTTP: build an engine from a configuration object (the shape of the
 * config file) or a config file path, check it, and ask questions.
 *
 *   const engine = await createEngine({ datasources: [...], llm: {...} });
 *   const answer = await engine.ask('How many orders per country?', { roles: ['analyst'] });
 *   await engine.close();
 */
import { dirname, resolve } from 'node:path';
import { loadConfig, parseConfig } from '../config/loader';
import { Engine, type EngineOptions } from './engine';

export async function createEngine(
  config: Record<string, unknown> | string,
  options: EngineOptions = {},
): Promise<Engine> {
  const env = options.env ?? process.env;
  const loaded =
    typeof config === 'string'
      ? loadConfig({ ...env, NL2SQL_CONFIG: resolve(config) }, dirname(resolve(config))).config
      : parseConfig(config, 'configuration object', { baseDir: process.cwd() });
  const engine = Engine.create(loaded, options);
  try {
    await engine.check();
  } catch (err) {
    await engine.close();
    throw err;
  }
  return engine;
}

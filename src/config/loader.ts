/**
 * Finds, reads and checks the configuration:
 *   NL2SQL_CONFIG, else ./nl2sql.yaml, else the built-in embedded default (config/embedded-default.yaml).
 * The `.env` beside the config file is loaded first and never overrides a variable already set.
 * The llm section may sit inline (`llm:`) or in `llm.yaml` beside the config file (not both).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { parseDocument } from 'yaml';
import { ConfigError, type ConfigProblem } from './config-error';
import { ConfigSchema, type RawConfig } from './schema';
import { validateStrict } from './strict-validate';
import { resolveDefaults, type AppConfig } from './defaults';
import { policyConfigProblems } from '../engine/policy/policy-config';

export const CONFIG_ENV = 'NL2SQL_CONFIG';
export const DEFAULT_CONFIG_NAME = 'nl2sql.yaml';
/** Shipped with the project; its paths are relative to the working directory, like a user's file. */
export const EMBEDDED_DEFAULT_PATH = resolve(__dirname, '..', '..', 'config', 'embedded-default.yaml');

export interface LoadedConfig {
  readonly config: AppConfig;
  /** The file read, or the embedded default's path. */
  readonly path: string;
  readonly embeddedDefault: boolean;
  /** Variables the .env file set (names only, for the start-up log). */
  readonly envFileVariables: readonly string[];
}

export function locateConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()) {
  const explicit = env[CONFIG_ENV];
  if (explicit) {
    const path = isAbsolute(explicit) ? explicit : resolve(cwd, explicit);
    if (!existsSync(path)) {
      throw new ConfigError(
        [{ path: CONFIG_ENV, message: `the file ${path} does not exist` }],
        'environment',
      );
    }
    return { path, embeddedDefault: false };
  }
  const local = join(cwd, DEFAULT_CONFIG_NAME);
  if (existsSync(local)) return { path: local, embeddedDefault: false };
  return { path: EMBEDDED_DEFAULT_PATH, embeddedDefault: true };
}

/** Loads `.env` beside the config file into `env` without overriding what is already set. */
export function loadEnvFile(configPath: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const file = join(dirname(configPath), '.env');
  if (!existsSync(file)) return [];
  const parsed = parseDotenv(readFileSync(file));
  const applied: string[] = [];
  for (const [k, v] of Object.entries(parsed)) {
    if (env[k] === undefined) {
      env[k] = v;
      applied.push(k);
    }
  }
  return applied;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): LoadedConfig {
  const { path, embeddedDefault } = locateConfig(env, cwd);
  const envFileVariables = embeddedDefault ? [] : loadEnvFile(path, env);
  const raw = readYaml(path);
  const llmFile = join(dirname(path), 'llm.yaml');
  if (!embeddedDefault && existsSync(llmFile)) {
    if (raw && typeof raw === 'object' && 'llm' in raw) {
      throw new ConfigError(
        [{ path: 'llm', message: `the llm section is both inline and in ${llmFile}; keep one` }],
        path,
      );
    }
    (raw as Record<string, unknown>).llm = readYaml(llmFile);
  }
  const config = parseConfig(raw, path, { baseDir: embeddedDefault ? cwd : dirname(path) });
  return { config, path, embeddedDefault, envFileVariables };
}

/** Checks a parsed document and fills defaults. Throws ConfigError listing every problem. */
export function parseConfig(raw: unknown, source = 'config', opts: { baseDir?: string } = {}): AppConfig {
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(
      [{ path: '', message: 'the configuration must be a mapping of keys to values' }],
      source,
    );
  }
  const problems: ConfigProblem[] = validateStrict(ConfigSchema, raw);
  problems.push(...crossChecks(raw as RawConfig));
  if (problems.length) throw new ConfigError(problems, source);
  return resolveDefaults(raw as RawConfig, opts.baseDir ?? process.cwd());
}

function crossChecks(cfg: RawConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const ids = new Map<string, number>();
  (cfg.datasources ?? []).forEach((ds, i) => {
    const prev = ids.get(ds.id);
    if (prev !== undefined) {
      problems.push({
        path: `datasources[${i}].id`,
        message: `duplicate datasource id '${ds.id}' (also datasources[${prev}])`,
      });
    }
    ids.set(ds.id, i);
  });
  (cfg.verified_queries ?? []).forEach((vq, i) => {
    if (!ids.has(vq.datasource_id)) {
      problems.push({
        path: `verified_queries[${i}].datasource_id`,
        message: `unknown datasource '${vq.datasource_id}' (configured: ${[...ids.keys()].join(', ') || 'none'})`,
      });
    }
  });
  (cfg.secrets?.runtime_allowed ?? []).forEach((ref, i) => {
    if (/^file:/i.test(ref)) {
      problems.push({
        path: `secrets.runtime_allowed[${i}]`,
        message:
          'a file reference can never be allowed at runtime: whoever may change a config over HTTP would read files of the server',
      });
    }
  });
  problems.push(...policyConfigProblems(cfg));
  const api = cfg.api ?? {};
  if (api.role_header && api.role) {
    problems.push({
      path: 'api.role',
      message: 'set either api.role_header or api.role, not both (the header would always win)',
    });
  }
  return problems;
}

function readYaml(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    throw new ConfigError(
      doc.errors.map((e) => ({
        path: `line ${e.linePos?.[0]?.line ?? '?'}`,
        message: e.message.split('\n')[0] ?? e.message,
      })),
      path,
    );
  }
  return doc.toJS();
}

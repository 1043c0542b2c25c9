/**
 * `nl2sql check-config [FILE]`: reads and validates a config as start-up does (the env file beside
 * it, the llm section) without connecting anything; the same messages, exit code 0 or 1. Secret
 * references that do not resolve now are problems too: the service would fail where it needs them.
 */
import { dirname, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { loadConfig } from '../../config/loader';
import { SecretManager } from '../../config/secrets';
import { unresolvedSecrets } from '../../config/unresolved-secrets';
import { reportFailure } from '../with-engine';
import { UsageError, type CommandIo, type CommandOptions } from '../io';

export async function checkConfigCommand(
  args: readonly string[],
  options: CommandOptions,
  io: CommandIo,
): Promise<number> {
  if (args.length > 1) throw new UsageError('check-config takes at most one file');
  const file = args[0] ? resolve(args[0]) : undefined;
  if (file && !existsSync(file)) {
    io.err(`nl2sql: no config file at ${file}`);
    return 1;
  }
  try {
    const env = file ? { ...options.env, NL2SQL_CONFIG: file } : options.env;
    const loaded = loadConfig(env);
    const c = loaded.config;
    const baseDir = loaded.embeddedDefault ? process.cwd() : dirname(loaded.path);
    const unresolved = unresolvedSecrets(c, new SecretManager(env, baseDir));
    if (unresolved.length) {
      io.err(
        `nl2sql: ${unresolved.length} secret reference(s) in ${loaded.path} do not resolve:\n` +
          unresolved.map((u) => `  - ${u.message}`).join('\n'),
      );
      return 1;
    }
    io.out(
      `config OK: ${loaded.embeddedDefault ? 'the embedded default' : loaded.path}\n` +
        `  datasources: ${c.datasources.map((d) => `${d.id} (${d.type})`).join(', ') || 'none'}\n` +
        `  verified queries: ${c.verified_queries.length}`,
    );
    return 0;
  } catch (err) {
    return reportFailure(io, err);
  }
}

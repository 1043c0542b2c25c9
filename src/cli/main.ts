/**
 * `nl2sql <command>`: the service from the command line.
 *
 *   serve                                  run the API (as `npm start`)
 *   ask "question" [--datasource ID] [--json] [--role R] [--arrow FILE]
 *                                          answer one question: the answer, the SQL and a table
 *   check-config [FILE]                    validate a config without starting (exit 0 or 1)
 *   index [ID | --all]                     build the schema and value index
 *   mcp [--role R]                         an MCP server on stdin/stdout over the same engine
 *   eval [--json] [--baseline FILE] [--id ID] [--role R]
 *                                          the model against every verified query; exit 1 on a regression
 *
 * Every command but check-config reads the config as the service does (NL2SQL_CONFIG, else
 * ./nl2sql.yaml, else the embedded default); `--config FILE` names one. Results go to stdout, logs
 * to stderr. Exit code 0 on success, 1 on failure, 2 on a usage error.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { SERVICE_VERSION } from '../version';
import { askCommand } from './commands/ask';
import { checkConfigCommand } from './commands/check-config';
import { evalCommand } from './commands/eval';
import { indexCommand } from './commands/index-command';
import { mcpCommand } from './commands/mcp';
import { serveCommand } from './commands/serve';
import { KEEPS_RUNNING, UsageError, type CommandIo } from './io';

const USAGE = `usage: nl2sql <command> [options]

commands:
  serve                                   run the API server (as npm start)
  ask "question" [--datasource ID] [--json] [--role ROLE] [--arrow FILE]
                                          answer one question: the answer, the SQL and a table;
                                          --arrow FILE also writes the result as an Arrow IPC stream
  check-config [FILE]                     validate a config without starting the service
  index [ID | --all]                      build the schema and value index of one datasource or all
  mcp [--role ROLE]                       serve MCP on stdin/stdout over the same engine
  eval [--json] [--baseline FILE] [--id ID] [--role ROLE]
                                          ask every verified query's question and paraphrases with the
                                          model (verified queries off), compare with the verified result;
                                          saves the run in FILE (./nl2sql-eval.json) and exits 1 when a
                                          question that matched in the run saved there no longer does

options for every command but check-config:
  --config FILE                           the config file (default: NL2SQL_CONFIG, ./nl2sql.yaml, the embedded default)
  --help, --version`;

const OPTIONS = {
  config: { type: 'string' },
  datasource: { type: 'string' },
  role: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  all: { type: 'boolean' },
  arrow: { type: 'string' },
  baseline: { type: 'string' },
  id: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.version) {
    io.out(SERVICE_VERSION);
    return 0;
  }
  if (values.help || !command) {
    if (values.help) io.out(USAGE);
    else io.err(USAGE);
    return values.help ? 0 : 2;
  }
  const env = values.config ? { ...io.env, NL2SQL_CONFIG: values.config } : io.env;
  const options = {
    env,
    roles: values.role ?? null,
    datasource: values.datasource ?? null,
    json: values.json ?? false,
    all: values.all ?? false,
    arrow: values.arrow ?? null,
    baseline: values.baseline ?? null,
    ids: values.id ?? null,
  };
  try {
    switch (command) {
      case 'serve':
        return await serveCommand(rest, options, io);
      case 'ask':
        return await askCommand(rest, options, io);
      case 'check-config':
        return await checkConfigCommand(rest, options, io);
      case 'index':
        return await indexCommand(rest, options, io);
      case 'mcp':
        return await mcpCommand(rest, options, io);
      case 'eval':
        return await evalCommand(rest, options, io);
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
}

/** The process entry (bin/nl2sql.js): argv in, exit code out; serve and mcp keep the process up. */
export function main(): void {
  const io: CommandIo = {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
  };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      // serve and mcp keep running; the others are done.
      if (code !== KEEPS_RUNNING) process.exitCode = code;
    },
    (err: unknown) => {
      io.err(`nl2sql: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}

if (require.main === module) main();

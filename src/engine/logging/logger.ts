/**
 * Logging through winston: text lines by default, JSON lines when NL2SQL_LOG_FORMAT=json.
 * Every line passes the redactor, so a secret that slipped into a message or a field is masked
 * whatever logged it. Loggers are named (`nl2sql.llm`, `nl2sql.http`...) as in the spec.
 */
import winston from 'winston';
import { redact, redactDeep } from '../../config/redact';

export type Logger = winston.Logger;

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    info[key] = typeof info[key] === 'string' ? redact(info[key]) : redactDeep(info[key]);
  }
  return info;
});

function lineFormat(): winston.Logform.Format {
  if ((process.env.NL2SQL_LOG_FORMAT ?? '').toLowerCase() === 'json') {
    return winston.format.combine(winston.format.timestamp(), redactFormat(), winston.format.json());
  }
  return winston.format.combine(
    winston.format.timestamp(),
    redactFormat(),
    winston.format.printf((info) => {
      const { timestamp, level, message, logger, stack, ...rest } = info as Record<string, unknown>;
      const fields = Object.entries(rest)
        .filter(([k]) => typeof k === 'string' && !k.startsWith('Symbol'))
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(' ');
      const tail = stack && typeof stack === 'string' ? `\n${stack}` : '';
      return `${String(timestamp)} ${String(level).toUpperCase()} [${typeof logger === 'string' ? logger : 'nl2sql'}] ${String(message)}${fields ? ' ' + fields : ''}${tail}`;
    }),
  );
}

export const rootLogger: Logger = winston.createLogger({
  level: process.env.NL2SQL_LOG_LEVEL ?? 'info',
  format: lineFormat(),
  transports: [new winston.transports.Console({ stderrLevels: ['error'] })],
});

/**
 * Every level to stderr: for command-line use where stdout carries the result (`nl2sql ask`) or a
 * protocol (`nl2sql mcp` speaks JSON-RPC on stdout, which a log line would corrupt).
 */
export function sendLogsToStderr(): void {
  rootLogger.clear();
  rootLogger.add(new winston.transports.Console({ stderrLevels: Object.keys(winston.config.npm.levels) }));
}

const children = new Map<string, Logger>();

export function getLogger(name: string): Logger {
  let child = children.get(name);
  if (!child) {
    child = rootLogger.child({ logger: name });
    children.set(name, child);
  }
  return child;
}

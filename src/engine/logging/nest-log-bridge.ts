/** Nest's own messages go through our logger (redacted, text or JSON). */
import type { LoggerService } from '@nestjs/common';
import { getLogger } from './logger';

export class NestLogBridge implements LoggerService {
  private readonly target = getLogger('nl2sql.nest');
  private write(level: 'info' | 'warn' | 'error' | 'debug', message: unknown, context?: unknown) {
    this.target.log(
      level,
      typeof message === 'string' ? message : JSON.stringify(message),
      typeof context === 'string' ? { context } : {},
    );
  }
  log(message: unknown, context?: unknown) {
    // Route mapping lines are noise at info level.
    this.write('debug', message, context);
  }
  error(message: unknown, _trace?: unknown, context?: unknown) {
    this.write('error', message, context);
  }
  warn(message: unknown, context?: unknown) {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: unknown) {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: unknown) {
    this.write('debug', message, context);
  }
}

/** Shared set-up for the model-layer tests: a service over the fake server, no process env. */
import { SecretManager } from '../../src/config/secrets';
import { MemoryAuditSink, type LlmLogger } from '../../src/engine/llm/audit';
import { LlmService, type LlmServiceOptions } from '../../src/engine/llm/llm-service';
import { ProviderRegistry } from '../../src/engine/llm/providers/registry';

export class RecordingLogger implements LlmLogger {
  readonly lines: { level: string; message: string; meta: Record<string, unknown> }[] = [];
  info(message: string, meta: Record<string, unknown> = {}): void {
    this.lines.push({ level: 'info', message, meta });
  }
  warn(message: string, meta: Record<string, unknown> = {}): void {
    this.lines.push({ level: 'warn', message, meta });
  }
}

export interface Harness {
  readonly service: LlmService;
  readonly logger: RecordingLogger;
  readonly audit: MemoryAuditSink;
  readonly env: NodeJS.ProcessEnv;
}

/** A service whose secrets come from `env` only (never the process environment). */
export function makeService(
  llm: unknown,
  env: NodeJS.ProcessEnv = {},
  extra: Partial<LlmServiceOptions> = {},
): Harness {
  const logger = new RecordingLogger();
  const audit = new MemoryAuditSink();
  const service = new LlmService({
    llm,
    secrets: new SecretManager(env),
    registry: extra.registry ?? new ProviderRegistry(),
    logger,
    audit,
    ...extra,
  });
  return { service, logger, audit, env };
}

export const ANSWER_SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'integer' }, unit: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
} as const;

export const ASK = {
  system: 'You answer arithmetic questions.',
  messages: [{ role: 'user' as const, content: 'What is 6 times 7?' }],
  schema: ANSWER_SCHEMA as unknown as Record<string, unknown>,
  schemaName: 'answer',
};

/** An OpenAI-wire agent section pointing at the fake; fast failures (no SDK retries). */
export function openaiAt(baseUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: 'openai',
    model: 'gpt-4.1-mini',
    api_key: 'sk-test-openai-0123456789',
    base_url: baseUrl,
    max_retries: 0,
    ...extra,
  };
}

export function anthropicAt(baseUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: 'anthropic',
    model: 'claude-haiku-4-5',
    api_key: 'sk-ant-test-0123456789',
    base_url: baseUrl,
    max_retries: 0,
    ...extra,
  };
}

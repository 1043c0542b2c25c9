/**
 * The model-call thread: hosts the built-in wire clients (the real SDKs) and runs their calls, so
 * building requests, HTTP and parsing answers happen beside the engine's event loop, not on it.
 * Messages from the engine are ToThread; answers go back as FromThread.
 */
import { parentPort } from 'node:worker_threads';
import { LlmError } from '../errors';
import { AnthropicWireClient } from './anthropic-wire';
import { loadAnthropic } from './builtins';
import { OpenAiWireClient } from './openai-wire';
import type { JsonSchema, ModelClient, OutputSpec, ResolvedAgent } from './provider';
import type { FromThread, ThreadError, ToThread, WireKind } from './wire-thread-protocol';

const port = parentPort;
if (!port) throw new Error('wire-thread-worker runs as a worker thread');

const clients = new Map<number, ModelClient>();
const calls = new Map<number, AbortController>();
/** Output schemas by id, as the engine sent them (once each). */
const schemas = new Map<number, JsonSchema>();
const post = (message: FromThread) => port.postMessage(message);

function create(wire: WireKind, agent: ResolvedAgent): ModelClient {
  if (wire.kind === 'openai') return new OpenAiWireClient(agent, wire.label, wire.tokenParam);
  return new AnthropicWireClient(loadAnthropic(require, agent), agent, wire.label);
}

/** This thread's own copy of the environment, made equal to the engine's. */
function useEnvironment(env: Readonly<Record<string, string | undefined>>): void {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
}

function describe(err: unknown): ThreadError {
  if (err instanceof LlmError) {
    return {
      llm: true,
      code: err.code,
      message: err.message,
      provider: err.provider,
      providerResponse: err.providerResponse,
      details: err.details,
    };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { llm: false, name: e.name, message: e.message };
}

/** A call that cannot be made: it fails at once, as a plain error. */
function refuse(id: number, message: string): void {
  post({ type: 'failed', id, error: { llm: false, name: 'Error', message } });
}

port.on('message', (m: ToThread) => {
  switch (m.type) {
    case 'open':
      useEnvironment(m.env);
      clients.set(m.clientId, create(m.wire, m.agent));
      return;
    case 'close': {
      const client = clients.get(m.clientId);
      clients.delete(m.clientId);
      void client?.close();
      return;
    }
    case 'schema':
      schemas.set(m.schemaId, m.schema);
      return;
    case 'abort':
      calls.get(m.id)?.abort(new Error('the call was cancelled'));
      return;
    case 'call': {
      const client = clients.get(m.clientId);
      if (!client) return refuse(m.id, 'unknown model client');
      const { stream, output, ...request } = m.request;
      let spec: OutputSpec | undefined;
      if (output) {
        const { schemaId, ...rest } = output;
        const schema = schemas.get(schemaId);
        if (!schema) return refuse(m.id, 'unknown output schema');
        spec = { ...rest, schema };
      }
      const controller = new AbortController();
      calls.set(m.id, controller);
      client
        .complete({
          ...request,
          ...(spec ? { output: spec } : {}),
          signal: controller.signal,
          ...(stream ? { onDelta: (text: string) => post({ type: 'delta', id: m.id, text }) } : {}),
        })
        .then(
          (response) => post({ type: 'done', id: m.id, response }),
          (err: unknown) => post({ type: 'failed', id: m.id, error: describe(err) }),
        )
        .finally(() => calls.delete(m.id));
      return;
    }
  }
});

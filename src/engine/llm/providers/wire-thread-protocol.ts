/** Messages between the engine and the model-call thread (wire-thread.ts, wire-thread-worker.ts). */
import type { ChatMessage, JsonSchema, ModelResponse, OutputSpec, ResolvedAgent } from './provider';

/** Which built-in wire a client speaks, and how it was labelled and configured. */
export type WireKind =
  | {
      readonly kind: 'openai';
      readonly label: string;
      readonly tokenParam: 'max_tokens' | 'max_completion_tokens';
    }
  | { readonly kind: 'anthropic'; readonly label: string };

/** An OutputSpec whose schema the thread already holds (sent once by a 'schema' message). */
export type ThreadOutput = Omit<OutputSpec, 'schema'> & { readonly schemaId: number };

/** A ModelRequest without what cannot cross threads (the delta callback and the signal). */
export interface ThreadRequest {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly output?: ThreadOutput;
  readonly agent?: string;
  readonly stream: boolean;
}

export type ToThread =
  | {
      readonly type: 'open';
      readonly clientId: number;
      readonly wire: WireKind;
      readonly agent: ResolvedAgent;
      /** The engine's environment when the client was made: the SDK reads it as it is built. */
      readonly env: Readonly<Record<string, string | undefined>>;
    }
  /**
   * An output schema, once per schema object: the plan's is most of a planning request, and
   * copying it to the thread with every call cost the event loop more than the rest of the call.
   */
  | { readonly type: 'schema'; readonly schemaId: number; readonly schema: JsonSchema }
  | { readonly type: 'call'; readonly id: number; readonly clientId: number; readonly request: ThreadRequest }
  | { readonly type: 'abort'; readonly id: number }
  | { readonly type: 'close'; readonly clientId: number };

/** An error as it crossed: an LlmError's fields, or any other error's name and message. */
export type ThreadError =
  | {
      readonly llm: true;
      readonly code: string;
      readonly message: string;
      readonly provider: string | null;
      readonly providerResponse: unknown;
      readonly details: Record<string, unknown>;
    }
  | { readonly llm: false; readonly name: string; readonly message: string };

export type FromThread =
  | { readonly type: 'delta'; readonly id: number; readonly text: string }
  | { readonly type: 'done'; readonly id: number; readonly response: ModelResponse }
  | { readonly type: 'failed'; readonly id: number; readonly error: ThreadError };

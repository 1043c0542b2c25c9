/**
 * Built-in wire clients run in a thread of their own: the engine's event loop only posts each
 * request and receives the answer. The SDKs build a request, its headers and its JSON body, then
 * parse the answer; with the HTTP work that was a quarter of the event loop's time per run, three
 * model calls a run, while the machine's other core had room (e2e bench profile). Plugins still
 * run in process: their code is the user's.
 *
 * The client seen by the engine behaves as the wire client itself: same answers, same LlmError
 * codes and messages (rebuilt from their fields), deltas in order before the answer, the signal
 * cancelling the call, close() refusing new calls. One thread serves every client of the process;
 * it keeps the process alive only while a call is in flight, and ends when its last client closes.
 */
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { LlmError, type LlmErrorCode, type ProviderErrorCode } from '../errors';
import type {
  JsonSchema,
  ModelClient,
  ModelRequest,
  ModelResponse,
  OutputSpec,
  ResolvedAgent,
} from './provider';
import type { FromThread, ThreadError, ThreadOutput, ToThread, WireKind } from './wire-thread-protocol';

interface Waiting {
  readonly resolve: (r: ModelResponse) => void;
  readonly reject: (e: Error) => void;
  readonly onDelta?: (text: string) => void;
}

class WireThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private seq = 0;
  private clientSeq = 0;
  private openClients = 0;
  /** Output schemas the current thread holds, by object (schemas are module constants). */
  private schemaIds = new WeakMap<JsonSchema, number>();
  private schemaSeq = 0;

  opened(): number {
    this.openClients++;
    return ++this.clientSeq;
  }

  /** The last client closed and no call is in flight: the thread ends (a new client starts one). */
  closed(clientId: number): void {
    this.post({ type: 'close', clientId });
    this.openClients--;
    if (this.openClients > 0 || this.waiting.size || !this.worker) return;
    const worker = this.worker;
    this.worker = null;
    worker.removeAllListeners('exit');
    void worker.terminate();
  }

  post(message: ToThread): void {
    this.thread().postMessage(message);
  }

  call(clientId: number, request: ModelRequest): Promise<ModelResponse> {
    const id = ++this.seq;
    return new Promise<ModelResponse>((resolve, reject) => {
      const signal = request.signal;
      const onAbort = () => this.post({ type: 'abort', id });
      const settle = () => {
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(id);
        if (!this.waiting.size) this.worker?.unref();
      };
      this.waiting.set(id, {
        resolve: (r) => {
          settle();
          resolve(r);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
        ...(request.onDelta ? { onDelta: request.onDelta } : {}),
      });
      // A call in flight keeps the process alive, as a socket of the SDK's own would.
      this.thread().ref();
      this.post({
        type: 'call',
        id,
        clientId,
        request: {
          system: request.system,
          messages: request.messages,
          ...(request.output ? { output: this.threadOutput(request.output) } : {}),
          ...(request.agent !== undefined ? { agent: request.agent } : {}),
          stream: request.onDelta !== undefined,
        },
      });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The output spec with its schema sent to the thread once, then named by its id. */
  private threadOutput(output: OutputSpec): ThreadOutput {
    const { schema, ...rest } = output;
    const worker = this.thread();
    let schemaId = this.schemaIds.get(schema);
    if (schemaId === undefined) {
      schemaId = ++this.schemaSeq;
      worker.postMessage({ type: 'schema', schemaId, schema } satisfies ToThread);
      this.schemaIds.set(schema, schemaId);
    }
    return { ...rest, schemaId };
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    // A new thread holds no schema yet.
    this.schemaIds = new WeakMap();
    const file = join(__dirname, `wire-thread-worker${extname(__filename)}`);
    // From TypeScript sources (tests, bench) the thread compiles on the fly; the build runs .js.
    const execArgv = extname(__filename) === '.ts' ? ['-r', require.resolve('@swc-node/register')] : [];
    const worker = new Worker(file, { execArgv });
    worker.on('message', (m: FromThread) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      if (m.type === 'delta') w.onDelta?.(m.text);
      else if (m.type === 'done') w.resolve(m.response);
      else w.reject(rebuild(m.error));
    });
    const fail = (err: Error) => {
      this.worker = null; // the next call starts a new thread
      for (const w of [...this.waiting.values()]) w.reject(err);
    };
    worker.on('error', (err) => fail(err));
    worker.on('exit', (code) => fail(new Error(`the model-call thread stopped (exit code ${code})`)));
    // After the listeners: adding a 'message' listener refs the thread again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

function rebuild(e: ThreadError): Error {
  if (!e.llm) return Object.assign(new Error(e.message), { name: e.name });
  return new LlmError(e.code as ProviderErrorCode | LlmErrorCode, e.message, {
    provider: e.provider,
    providerResponse: e.providerResponse,
    details: e.details,
  });
}

const shared = new WireThread();

/** A built-in wire client whose calls run in the model-call thread. */
export class ThreadedModelClient implements ModelClient {
  private readonly clientId = shared.opened();
  private closed = false;

  constructor(
    wire: WireKind,
    private readonly agent: ResolvedAgent,
  ) {
    // The SDKs read variables such as OPENAI_BASE_URL when a client is built: the thread builds it
    // with the environment this process has now.
    shared.post({ type: 'open', clientId: this.clientId, wire, agent, env: { ...process.env } });
  }

  complete(request: ModelRequest): Promise<ModelResponse> {
    if (this.closed) {
      // The words of the wire client's own refusal (wire-client.ts).
      return Promise.reject(
        new LlmError(
          'LLM_CLIENT_CLOSED',
          `the client of agent '${request.agent ?? this.agent.name}' was closed`,
          {
            provider: this.agent.provider,
          },
        ),
      );
    }
    return shared.call(this.clientId, request);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    shared.closed(this.clientId);
  }
}

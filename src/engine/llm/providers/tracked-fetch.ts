/**
 * A fetch for one SDK client that knows its requests in flight, so closing the client aborts them
 * and refuses new ones. The transport (node-http-fetch.ts) has one socket pool for the process;
 * what a client owns, and so what closing it ends, is its requests.
 */
import { LlmError } from '../errors';
import { nodeHttpFetch } from './node-http-fetch';

export class TrackedFetch {
  private readonly inFlight = new Set<AbortController>();
  private closedFlag = false;

  constructor(private readonly provider: string) {}

  get closed(): boolean {
    return this.closedFlag;
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (this.closedFlag) {
      throw new LlmError(
        'LLM_CLIENT_CLOSED',
        `the ${this.provider} client was closed (the LLM set was replaced or the engine closed)`,
        {
          provider: this.provider,
        },
      );
    }
    const controller = new AbortController();
    const outer = init?.signal;
    const onAbort = () => controller.abort(outer?.reason);
    if (outer) {
      if (outer.aborted) controller.abort(outer.reason);
      else outer.addEventListener('abort', onAbort, { once: true });
    }
    this.inFlight.add(controller);
    try {
      return await nodeHttpFetch(input, { ...init, signal: controller.signal });
    } catch (err) {
      // The SDKs tell a timeout (they abort their own signal) from a network failure by the
      // error's name; keep that name whatever the runtime's abort reason looks like.
      if (outer?.aborted)
        throw Object.assign(new Error('The operation was aborted'), { name: 'AbortError', cause: err });
      throw err;
    } finally {
      this.inFlight.delete(controller);
      outer?.removeEventListener('abort', onAbort);
    }
  };

  close(): void {
    this.closedFlag = true;
    for (const c of this.inFlight) c.abort(new Error('client closed'));
    this.inFlight.clear();
  }
}

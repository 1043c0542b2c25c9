/**
 * MCP progress for a run: when the client sent a progress token, each finished pipeline step is a
 * `notifications/progress` on the same request (over the POST's event stream on HTTP, on stdout
 * on stdio), so an agent shows the run moving instead of a silent wait of seconds.
 */
import type { RunEvent } from '../../engine/events/run-events';

interface ProgressExtra {
  readonly _meta?: { readonly progressToken?: string | number };
  sendNotification(notification: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; message?: string };
  }): Promise<void>;
}

/** An `onEvent` for RunService.run, or undefined when the client asked for no progress. */
export function progressReporter(extra: ProgressExtra): ((event: RunEvent) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let steps = 0;
  return (event) => {
    if (event.name !== 'node.finished') return;
    const { node, ok } = event.data;
    steps++;
    // A lost notification must not fail the run: the answer still comes.
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: steps, message: `${node} ${ok ? 'done' : 'failed'}` },
      })
      .catch(() => undefined);
  };
}

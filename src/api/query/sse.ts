/**
 * Writes run events as Server-Sent Events: `event: <name>` then one `data:` line with the whole
 * envelope. Nothing is written after the terminal event; a client that disconnects cancels the run.
 */
import type { Response } from 'express';
import type { Observable } from 'rxjs';
import type { RunEvent } from '../../engine/events/run-events';

export function relayRunEvents(events$: Observable<RunEvent>, res: Response, cancel: () => void): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Accel-Buffering', 'no');
  res.setHeader('Connection', 'keep-alive');
  res.flushHeaders();
  let ended = false;
  const subscription = events$.subscribe({
    next: (event) => {
      if (ended) return;
      res.write(`event: ${event.name}\ndata: ${JSON.stringify(event)}\n\n`);
    },
    complete: () => {
      ended = true;
      res.end();
    },
  });
  res.on('close', () => {
    if (!ended) {
      ended = true;
      cancel();
    }
    subscription.unsubscribe();
  });
}

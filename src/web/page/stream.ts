/** POST /api/v1/query/stream, read as Server-Sent Events from the fetch body. */
import { ApiError, type Api } from './api';
import { SseParser } from './sse-parser';
import type { RunEvent } from './wire';

export async function streamQuery(
  api: Api,
  body: Record<string, unknown>,
  signal: AbortSignal,
  onEvent: (event: RunEvent) => void,
): Promise<void> {
  const res = await fetch('/api/v1/query/stream', {
    method: 'POST',
    headers: api.headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) throw await ApiError.from(res);
  if (!res.body) throw new Error('the stream route answered without a body');
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    for (const message of parser.push(value)) onEvent(JSON.parse(message.data) as RunEvent);
  }
}

/**
 * The oracle's thread: the fake model server (OpenAI wire, real HTTP on 127.0.0.1) answering with
 * OracleAnswers. It runs beside the service's event loop, as a real model server would, so the
 * oracle's own work never delays a run's steps. Messages from the parent are OracleCommand.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FakeModelServer } from '../../test/support/fake-model';
import { OracleAnswers, type OracleEntry } from './oracle-answers';

export type OracleCommand =
  | { readonly id: number; readonly type: 'load'; readonly entries: readonly OracleEntry[] }
  | { readonly id: number; readonly type: 'restart-clock' }
  | { readonly id: number; readonly type: 'latency'; readonly ms: number }
  | { readonly id: number; readonly type: 'stats' }
  | { readonly id: number; readonly type: 'close' };

export type OracleEvent =
  | { readonly type: 'listening'; readonly baseUrl: string }
  | {
      readonly type: 'done';
      readonly id: number;
      readonly counts?: Record<string, number>;
      readonly unknown?: number;
      /** Busy time of this thread's event loop since the last 'restart-clock' (ms). */
      readonly busyMs?: number;
    };

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('oracle-worker runs as a worker thread');
  const answers = new OracleAnswers();
  // Nothing reads the requests back: keeping them only fed the thread's garbage collector.
  const server = await FakeModelServer.start({ record: false });
  let latencyMs = Number((workerData as { latencyMs?: number } | null)?.latencyMs ?? 0);
  server.onRequest((req) => {
    const reply = answers.answer(req);
    return latencyMs > 0 && !('hang' in reply) ? { ...reply, delayMs: latencyMs } : reply;
  });
  let since = performance.eventLoopUtilization();
  port.on('message', (cmd: OracleCommand) => {
    void (async () => {
      switch (cmd.type) {
        case 'load':
          answers.load(cmd.entries);
          break;
        case 'restart-clock':
          since = performance.eventLoopUtilization();
          break;
        case 'latency':
          latencyMs = cmd.ms;
          break;
        case 'stats':
          port.postMessage({
            type: 'done',
            id: cmd.id,
            counts: answers.counts,
            unknown: answers.unknown,
            busyMs: performance.eventLoopUtilization(since).active,
          } satisfies OracleEvent);
          return;
        case 'close':
          await server.close();
          port.postMessage({ type: 'done', id: cmd.id } satisfies OracleEvent);
          port.close();
          return;
      }
      port.postMessage({ type: 'done', id: cmd.id } satisfies OracleEvent);
    })();
  });
  port.postMessage({ type: 'listening', baseUrl: server.openaiBaseUrl } satisfies OracleEvent);
}

void main();

/**
 * The load generator's thread: N clients over keep-alive sockets, each taking the next question
 * when free, as the throughput pass's users. It runs beside the service's event loop, so parsing
 * responses (up to sample_rows rows each) costs the clients' thread, not the service's, as it
 * would with clients on other machines. One thread serves every pass (warm-up included, so its
 * own code is warm too) and posts back only each run's measure.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BenchClient } from './client';
import { measureRun, type QueryResponseLite, type RunMeasure } from './measure';

export interface LoadQuestion {
  readonly idx: number;
  readonly question: string;
  readonly dbId: string;
}

export interface LoadSetup {
  readonly baseUrl: string;
  readonly clients: number;
}

export interface LoadPassCommand {
  readonly id: number;
  readonly questions: readonly LoadQuestion[];
}

export type LoadOutcome =
  | {
      readonly id: number;
      readonly ok: true;
      readonly measures: RunMeasure[];
      /** Busy time of this thread's event loop over the pass (ms). */
      readonly busyMs: number;
    }
  | { readonly id: number; readonly ok: false; readonly error: string };

async function pass(
  client: BenchClient,
  clients: number,
  questions: readonly LoadQuestion[],
): Promise<RunMeasure[]> {
  const measures: RunMeasure[] = [];
  let next = 0;
  const user = async () => {
    while (next < questions.length) {
      const q = questions[next++]!;
      const r = await client.post<QueryResponseLite>('/api/v1/query', {
        natural_language: q.question,
        datasource_id: q.dbId,
      });
      if (r.status !== 200)
        throw new Error(`question #${q.idx}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      measures.push(measureRun(r.body, r.wallMs));
    }
  };
  await Promise.all(Array.from({ length: Math.min(clients, questions.length) }, user));
  return measures;
}

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('load-worker runs as a worker thread');
  const setup = workerData as LoadSetup;
  const client = new BenchClient(setup.baseUrl, setup.clients);
  port.on('message', (cmd: LoadPassCommand) => {
    const since = performance.eventLoopUtilization();
    pass(client, setup.clients, cmd.questions).then(
      (measures) => {
        const busyMs = performance.eventLoopUtilization(since).active;
        port.postMessage({ id: cmd.id, ok: true, measures, busyMs } satisfies LoadOutcome);
      },
      (err: unknown) =>
        port.postMessage({
          id: cmd.id,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
        } satisfies LoadOutcome),
    );
  });
  port.once('close', () => client.close());
}

main();

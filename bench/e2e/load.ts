/**
 * The load generator (load-worker.ts) seen from the bench: a thread of its own that runs passes
 * of questions against the service and returns each run's measure.
 */
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LoadOutcome, LoadPassCommand, LoadQuestion, LoadSetup } from './load-worker';
import type { RunMeasure } from './measure';

export interface LoadPassResult {
  readonly measures: RunMeasure[];
  /** How long the clients' thread was busy over the pass (ms). */
  readonly busyMs: number;
}

export class LoadGenerator {
  private readonly waiting = new Map<
    number,
    { resolve: (p: LoadPassResult) => void; reject: (e: Error) => void }
  >();
  private seq = 0;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (o: LoadOutcome) => {
      const w = this.waiting.get(o.id);
      this.waiting.delete(o.id);
      if (o.ok) w?.resolve({ measures: o.measures, busyMs: o.busyMs });
      else w?.reject(new Error(o.error));
    });
    const fail = (err: Error) => {
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the load thread stopped (exit code ${code})`)));
  }

  /** `clients` concurrent clients of `baseUrl`, each on a keep-alive socket of its own. */
  static start(baseUrl: string, clients: number): LoadGenerator {
    const file = join(__dirname, `load-worker${extname(__filename)}`);
    // From TypeScript sources (bench, jest) the thread compiles on the fly, like the oracle's.
    const execArgv = extname(__filename) === '.ts' ? ['-r', '@swc-node/register'] : [];
    const workerData: LoadSetup = { baseUrl, clients };
    return new LoadGenerator(new Worker(file, { execArgv, workerData }));
  }

  /** Every question once, the clients taking the next one when free. */
  pass(questions: readonly LoadQuestion[]): Promise<LoadPassResult> {
    const id = ++this.seq;
    const command: LoadPassCommand = {
      id,
      questions: questions.map((q) => ({ idx: q.idx, question: q.question, dbId: q.dbId })),
    };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage(command);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

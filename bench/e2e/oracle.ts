/**
 * The oracle model: answers every pipeline call as a perfect model would (see oracle-answers.ts),
 * so that the e2e bench measures the service and not a model. Its server runs in a worker thread
 * (oracle-worker.ts); this side imports each question's gold SQL as a plan, once, before any run,
 * against the schema the service introspected, so a planning call costs the oracle a lookup.
 */
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SchemaSnapshot } from '../../src/engine/datasources/schema';
import { importSql } from '../../src/engine/plan';
import type { OracleEntry } from './oracle-answers';
import type { OracleCommand, OracleEvent } from './oracle-worker';

export interface OracleQuestion {
  readonly question: string;
  readonly dbId: string;
  /** Gold SQL in SQLite's dialect. */
  readonly sql: string;
}

type Command = OracleCommand extends infer C ? (C extends OracleCommand ? Omit<C, 'id'> : never) : never;
type Done = Extract<OracleEvent, { type: 'done' }>;

export class Oracle {
  private readonly importErrors = new Map<OracleQuestion, string>();
  private readonly waiting = new Map<number, { resolve: (e: Done) => void; reject: (e: Error) => void }>();
  private seq = 0;

  private constructor(
    private readonly worker: Worker,
    readonly baseUrl: string,
  ) {
    worker.on('message', (e: OracleEvent) => {
      if (e.type !== 'done') return;
      this.waiting.get(e.id)?.resolve(e);
      this.waiting.delete(e.id);
    });
    const fail = (err: Error) => {
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('the oracle thread stopped')));
  }

  /** `latencyMs`: each model call is answered after this long, as a real model would take. */
  static start(latencyMs = 0): Promise<Oracle> {
    const file = join(__dirname, `oracle-worker${extname(__filename)}`);
    // From TypeScript sources (bench, jest) the thread compiles on the fly, like the SQLite runner.
    const execArgv = extname(__filename) === '.ts' ? ['-r', '@swc-node/register'] : [];
    const worker = new Worker(file, { execArgv, workerData: { latencyMs } });
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      worker.once('error', onError);
      worker.once('message', (e: OracleEvent) => {
        worker.off('error', onError);
        if (e.type === 'listening') resolve(new Oracle(worker, e.baseUrl));
        else reject(new Error('the oracle thread did not start'));
      });
    });
  }

  /** From now on each model call is answered after `ms`. */
  async setLatency(ms: number): Promise<void> {
    await this.call({ type: 'latency', ms });
  }

  /** Imports every question's gold SQL as a plan and hands the answers to the oracle thread. */
  async prepare(
    questions: readonly OracleQuestion[],
    snapshotOf: (dbId: string) => SchemaSnapshot | null,
  ): Promise<void> {
    const entries: OracleEntry[] = questions.map((q) => {
      const snapshot = snapshotOf(q.dbId);
      try {
        if (!snapshot) throw new Error(`no schema for database '${q.dbId}'`);
        return {
          question: q.question.trim(),
          dbId: q.dbId,
          plan: importSql(q.sql, 'sqlite', snapshot),
          importError: null,
          sql: q.sql,
        };
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        this.importErrors.set(q, reason);
        return { question: q.question.trim(), dbId: q.dbId, plan: null, importError: reason, sql: q.sql };
      }
    });
    await this.call({ type: 'load', entries });
  }

  /** Why the gold SQL of a question could not become a plan, or null when it did. */
  importError(q: OracleQuestion): string | null {
    return this.importErrors.get(q) ?? null;
  }

  /** Starts the oracle thread's busy time again (stats' busyMs), at the start of a pass. */
  async restartBusyClock(): Promise<void> {
    await this.call({ type: 'restart-clock' });
  }

  /**
   * Calls answered per step, calls that named a question the oracle did not know, and how long
   * the oracle's thread was busy since its busy clock was last restarted.
   */
  async stats(): Promise<{ counts: Record<string, number>; unknown: number; busyMs: number }> {
    const done = await this.call({ type: 'stats' });
    return { counts: done.counts ?? {}, unknown: done.unknown ?? 0, busyMs: done.busyMs ?? 0 };
  }

  async close(): Promise<void> {
    await this.call({ type: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  private call(command: Command): Promise<Done> {
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...command, id });
    });
  }
}

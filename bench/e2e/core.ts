/**
 * The e2e suite without its command line: starts the oracle and the service, sends every scorable
 * question through `POST /api/v1/query` (with the gold datasource_id: routing is the retrieval
 * bench's business), scores execution match against dev_gold_results.jsonl, and times each run.
 *
 * Passes, in order:
 *   warm-up     every question at full concurrency, four times (--warmup), not measured (JIT,
 *               heap, SQLite runner processes, sockets)
 *   sequential  every question once, one client: execution match and the per-run figures
 *   concurrent  every question once, N clients pulling from one queue, three times: runs_per_s
 *               of the median pass
 *
 * The warm-up and concurrent passes send from a thread of their own (load.ts), so the clients'
 * work (parsing responses) does not take the service's event loop, as clients elsewhere would not.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { compareResults } from '../roundtrip/compare';
import { loadSpider, type GoldResult, type SpiderDataset } from '../support/spider';
import { BenchClient, type Timed } from './client';
import { fileCreateCpuMs } from './file-create-reference';
import { LoadGenerator } from './load';
import { measureRun, mean, round3, spread, type QueryResponseLite, type RunMeasure } from './measure';
import { Oracle, type OracleQuestion } from './oracle';
import { startCpuProfile, startHeapProfile } from './profile';
import { startService, type RunningService } from './service';

export interface E2eOptions {
  readonly data: string;
  /** Concurrent clients of the throughput pass (default 8). */
  readonly concurrency?: number;
  /** The planner format the service is configured with (default sql: the oracle answers the gold SQL). */
  readonly format?: 'sql' | 'plan';
  /** The oracle answers each model call after this many ms (default 0): a real model takes 300 ms to seconds. */
  readonly modelLatencyMs?: number;
  /** Only the first N scorable questions (and only their databases). */
  readonly limit?: number;
  /** settings.pipeline.sample_rows (max 1000); larger results are paged through the result route. */
  readonly sampleRows?: number;
  /** Writes a CPU profile of the main thread over the last concurrent pass to this file. */
  readonly profile?: string;
  /** Writes a sampling heap profile (allocations) of the main thread over the last pass. */
  readonly heapProfile?: string;
  /** Concurrent passes to run (default 3); the median one is reported. */
  readonly passes?: number;
  /** Unmeasured passes before the sequential one (default WARMUP_PASSES). */
  readonly warmup?: number;
  /** Parent of the run's temporary storage folder (results and traces); default the OS temp folder. */
  readonly storage?: string;
  /** Skip the concurrent pass (the smoke test keeps it; this is for quick looks). */
  readonly sequentialOnly?: boolean;
  readonly onProgress?: (message: string) => void;
}

export interface E2eQuestion extends OracleQuestion {
  readonly idx: number;
  readonly gold: GoldResult;
}

/** matched; other rows; the run failed; the gold SQL could not become a plan. */
export type Verdict = 'matched' | 'mismatch' | 'run_failed' | 'not_imported';

export interface E2eOutcome {
  readonly idx: number;
  readonly dbId: string;
  readonly verdict: Verdict;
  /** Why it did not match: an error code, an import failure, or the comparison's reason. */
  readonly reason: string | null;
  readonly measure: RunMeasure;
}

export interface E2eFigures {
  suite: 'e2e';
  questions: number;
  /** The planner format: the oracle answered with the gold SQL (sql) or its imported plan (plan). */
  format: 'sql' | 'plan';
  /** What each model call waited before the oracle answered (ms). */
  model_latency_ms: number;
  /** Concurrent clients of the throughput passes. */
  clients: number;
  /** The service's event-loop delay over the median concurrent pass (monitorEventLoopDelay). */
  event_loop_lag_ms: { p99: number } | null;
  /** Growth of the process's resident memory at the pass's peak over before it, per client (MB). */
  rss_per_inflight_run_mb: number | null;
  execution_match: number;
  overhead_ms: { p50: number; p95: number };
  runs_per_s: number;
  databases: number;
  skipped_data_incomplete: number;
  gold_import_failed: number;
  failed_runs: number;
  mismatched: number;
  /**
   * CPU per file created empty in the storage folder (ms), before the passes and after them: a run
   * creates three there, and on some virtual disks that is the largest cost of a run
   * (file-create-reference.ts).
   */
  storage_file_create_ms: { before: number; after: number };
  wall_ms: { p50: number; p95: number };
  model_ms: { p50: number; p95: number };
  model_calls_per_run: number;
  sql_ms: { p50: number; p95: number };
  /** wall - timings.total: HTTP, trace write and the response body. */
  outside_engine_ms: { p50: number; p95: number };
  /** Mean per node of its time minus the model time inside it (ms); `executor` is the SQL time. */
  node_own_ms_mean: Record<string, number>;
  concurrent: {
    clients: number;
    runs: number;
    seconds: number;
    /** CPU of this process (every thread: service, DuckDB, oracle, clients; not the SQLite runner processes). */
    process_cpu_ms_per_run: number;
    /** runs_per_s of every concurrent pass; the figures above are those of the median pass. */
    passes_runs_per_s: number[];
    /** process_cpu_ms_per_run of every concurrent pass: still falling means still warming up. */
    passes_process_cpu_ms_per_run: number[];
    /** Busy CPU of the whole machine per run (ms): this process, the SQLite runners, the kernel. */
    machine_cpu_ms_per_run: number;
    /** Share of the machine's time the host took away over the pass (virtual machines; Linux). */
    steal: number | null;
    /** Share of the pass the service's event loop was busy (0..1): at 1 it is the bottleneck. */
    event_loop_busy: number;
    /** Busy event-loop time per run (ms): the service's own single-threaded cost of a run. */
    event_loop_ms_per_run: number;
    /**
     * CPU time of the service's main thread per run (ms), from /proc (Linux; null elsewhere):
     * unlike the event loop's busy time, it does not grow when the machine lends the core away.
     */
    main_thread_cpu_ms_per_run: number | null;
    /** Busy time per run of the clients' thread and of the oracle's (ms): the bench's own cost. */
    client_thread_ms_per_run: number;
    oracle_thread_ms_per_run: number;
    overhead_ms: { p50: number; p95: number };
    wall_ms: { p50: number; p95: number };
    event_loop_lag_p99_ms: number;
    rss_growth_mb: number;
  } | null;
  notes: string[];
}

export interface E2eResult {
  readonly figures: E2eFigures;
  readonly outcomes: readonly E2eOutcome[];
}

const ROW_CAP = 1_000_000;
/** Warm-up passes: after one, the concurrent passes still got faster for a while (bench/README.md). */
const WARMUP_PASSES = 4;
const PAGE_LIMIT = 1000;

/** Questions with a gold result and complete data, in dev.json order. */
export function scorableQuestions(data: SpiderDataset): { questions: E2eQuestion[]; skipped: number } {
  const known = new Set(data.databases);
  let skipped = 0;
  const questions: E2eQuestion[] = [];
  for (const q of data.questions) {
    const gold = data.gold.get(q.idx);
    if (!gold || !known.has(q.dbId)) continue;
    if (data.annotations.get(q.idx)?.dataIncomplete) {
      skipped++;
      continue;
    }
    questions.push({ idx: q.idx, dbId: q.dbId, question: q.question.trim(), sql: q.query, gold });
  }
  return { questions, skipped };
}

export async function runE2e(opts: E2eOptions): Promise<E2eResult> {
  const progress = opts.onProgress ?? (() => undefined);
  const data = loadSpider(opts.data);
  const all = scorableQuestions(data);
  const questions = all.questions.slice(0, opts.limit ?? Infinity);
  if (!questions.length)
    throw new Error(`e2e: no scorable question in ${data.dir} (dev.json + dev_gold_results.jsonl)`);
  const used = new Set(questions.map((q) => q.dbId));
  const databases = new Map(
    data.databases
      .filter((db) => opts.limit === undefined || used.has(db))
      .map((db) => [db, data.sqlitePath(db)]),
  );
  const concurrency = opts.concurrency ?? 8;
  const sampleRows = Math.min(opts.sampleRows ?? 1000, 1000);

  const oracle = await Oracle.start(opts.modelLatencyMs ?? 0);
  let service: RunningService | null = null;
  let client: BenchClient | null = null;
  let load: LoadGenerator | null = null;
  try {
    progress(`e2e: starting the service with ${databases.size} sqlite datasources`);
    service = await startService({
      databases,
      modelBaseUrl: oracle.baseUrl,
      sampleRows,
      rowCap: ROW_CAP,
      storageParent: opts.storage,
      plannerFormat: opts.format,
    });
    const createBefore = fileCreateCpuMs(service.storageDir, 'before');
    await oracle.prepare(questions, (db) => service?.snapshot(db) ?? null);
    client = new BenchClient(service.url, concurrency);
    load = LoadGenerator.start(service.url, concurrency);
    const ask = askWith(client);

    // Whole concurrent passes, not measured: each datasource's pool starts every SQLite runner
    // process it will use, and the code and heap reach their steady state (WARMUP_PASSES).
    const warmup = opts.warmup ?? WARMUP_PASSES;
    for (let p = 1; p <= warmup; p++) {
      progress(`e2e: warm-up pass ${p} of ${warmup}, ${concurrency} clients`);
      await load.pass(questions);
    }

    // One run at a time, the model's latency would only add waiting: the sequential pass (execution
    // match, overhead without contention) runs at zero latency, the concurrent passes at the latency.
    await oracle.setLatency(0);
    progress(`e2e: sequential pass over ${questions.length} questions`);
    const outcomes: E2eOutcome[] = [];
    for (const q of questions) {
      const { res, wallMs } = await ask(q);
      const measure = measureRun(res, wallMs);
      const verdict = await score(client, q, res, oracle.importError(q));
      outcomes.push({ idx: q.idx, dbId: q.dbId, ...verdict, measure });
    }

    let concurrent: E2eFigures['concurrent'] = null;
    if (!opts.sequentialOnly) {
      await oracle.setLatency(opts.modelLatencyMs ?? 0);
      // Several passes, the median reported: on a shared virtual machine one pass can lose a
      // third of its time to the host (see `steal`), and the median is the figure to compare.
      const passes: NonNullable<E2eFigures['concurrent']>[] = [];
      const count = Math.max(1, opts.passes ?? 3);
      for (let p = 1; p <= count; p++) {
        progress(`e2e: concurrent pass ${p}, ${concurrency} clients`);
        // The last pass is profiled: by then the code is as warm as it gets.
        const profiler = p === count && opts.profile ? await startCpuProfile(opts.profile) : null;
        const heap = p === count && opts.heapProfile ? await startHeapProfile(opts.heapProfile) : null;
        passes.push(await concurrentPass(load, oracle, questions, concurrency));
        await profiler?.stop();
        await heap?.stop();
      }
      const byRate = [...passes].sort((a, b) => a.runs / a.seconds - b.runs / b.seconds);
      concurrent = {
        ...byRate[Math.floor((byRate.length - 1) / 2)]!,
        passes_runs_per_s: passes.map((x) => round3(x.runs / x.seconds)),
        passes_process_cpu_ms_per_run: passes.map((x) => x.process_cpu_ms_per_run),
      };
    }
    const createAfter = fileCreateCpuMs(service.storageDir, 'after');
    const figures = summarise(outcomes, {
      format: opts.format ?? 'sql',
      modelLatencyMs: opts.modelLatencyMs ?? 0,
      clients: concurrency,
      fileCreateMs: { before: round3(createBefore), after: round3(createAfter) },
      databases: databases.size,
      skipped: all.skipped,
      concurrent,
      sampleRows,
      unknownQuestions: (await oracle.stats()).unknown,
    });
    return { figures, outcomes };
  } finally {
    client?.close();
    await load?.close();
    await service?.close();
    await oracle.close();
  }
}

async function concurrentPass(
  load: LoadGenerator,
  oracle: Oracle,
  questions: readonly E2eQuestion[],
  concurrency: number,
): Promise<NonNullable<E2eFigures['concurrent']>> {
  await oracle.restartBusyClock();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const machine0 = machineTicks();
  const main0 = mainThreadCpuMs();
  // The service runs in this process: its event-loop delay and resident memory are this process's.
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const rss0 = process.memoryUsage.rss();
  let rssPeak = rss0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 50);
  const passed = await load.pass(questions).finally(() => {
    clearInterval(sampler);
    lag.disable();
  });
  const { measures, busyMs: clientBusyMs } = passed;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  const machine1 = machineTicks();
  const main1 = mainThreadCpuMs();
  const seconds = (performance.now() - t0) / 1000;
  const oracleBusyMs = (await oracle.stats()).busyMs;
  const runs = measures.length;
  return {
    clients: concurrency,
    runs,
    seconds: round3(seconds),
    passes_runs_per_s: [],
    passes_process_cpu_ms_per_run: [],
    process_cpu_ms_per_run: round3((cpu.user + cpu.system) / 1000 / runs),
    machine_cpu_ms_per_run: round3((machine1.busyMs - machine0.busyMs) / runs),
    steal:
      machine1.totalMs > machine0.totalMs
        ? round3((machine1.stealMs - machine0.stealMs) / (machine1.totalMs - machine0.totalMs))
        : null,
    event_loop_busy: round3(elu.utilization),
    event_loop_ms_per_run: round3(elu.active / runs),
    main_thread_cpu_ms_per_run: main0 === null || main1 === null ? null : round3((main1 - main0) / runs),
    client_thread_ms_per_run: round3(clientBusyMs / runs),
    oracle_thread_ms_per_run: round3(oracleBusyMs / runs),
    overhead_ms: spread(measures.map((m) => m.overheadMs)),
    wall_ms: spread(measures.map((m) => m.wallMs)),
    event_loop_lag_p99_ms: round3(lag.percentile(99) / 1e6),
    rss_growth_mb: round3(Math.max(0, rssPeak - rss0) / 2 ** 20),
  };
}

/**
 * CPU time of the whole machine since boot (ms): busy (user, nice, system, irq, softirq), stolen
 * by the host (a virtual machine's lost time), and in all. From /proc/stat on Linux; elsewhere
 * from os.cpus(), which knows no steal.
 */
function machineTicks(): { busyMs: number; stealMs: number; totalMs: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map((v) => Number(v) * 10);
    const busyMs = user! + nice! + system! + irq! + softirq!;
    return { busyMs, stealMs: steal!, totalMs: busyMs + idle! + iowait! + steal! };
  } catch {
    const busyMs = cpus().reduce(
      (sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq,
      0,
    );
    return { busyMs, stealMs: 0, totalMs: busyMs };
  }
}

/** User + system CPU of this process's main thread (ms), or null where /proc has no such file. */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state; utime and stime are
    // the 14th and 15th fields of the line, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export type Ask = (q: E2eQuestion) => Promise<{ res: QueryResponseLite; wallMs: number }>;

export function askWith(client: BenchClient): Ask {
  return async (q) => {
    const r = await client.post<QueryResponseLite>('/api/v1/query', {
      natural_language: q.question,
      datasource_id: q.dbId,
    });
    if (r.status !== 200)
      throw new Error(`question #${q.idx}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    return { res: r.body, wallMs: r.wallMs };
  };
}

/** Strict execution match of a run's whole result against the gold result. */
export async function score(
  client: BenchClient,
  q: E2eQuestion,
  res: QueryResponseLite,
  importError: string | null,
): Promise<{ verdict: Verdict; reason: string | null }> {
  if (importError) return { verdict: 'not_imported', reason: importError };
  const sq = res.sub_queries[0];
  if (res.status !== 'success' || !sq?.rows) {
    const e = res.errors[0];
    return { verdict: 'run_failed', reason: e ? `${e.error_code}: ${e.message}` : `status ${res.status}` };
  }
  const rows = await allRows(client, res.trace_id, sq.id, sq.rows);
  const outcome = compareResults(q.gold.rows, rows, q.gold.ordered);
  return outcome.equal
    ? { verdict: 'matched', reason: null }
    : { verdict: 'mismatch', reason: outcome.reason };
}

interface ResultPageLite {
  readonly rows: unknown[][];
  readonly next_offset: number | null;
}

/** The inline sample when it is the whole result, else every page of the saved result. */
async function allRows(
  client: BenchClient,
  requestId: string,
  resultId: string,
  inline: { rows: unknown[][]; total_rows: number },
): Promise<unknown[][]> {
  if (inline.rows.length >= inline.total_rows) return inline.rows;
  const rows: unknown[][] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page: Timed<ResultPageLite> = await client.get<ResultPageLite>(
      `/api/v1/query/${requestId}/results/${resultId}?offset=${offset}&limit=${PAGE_LIMIT}`,
    );
    if (page.status !== 200) throw new Error(`result page of run ${requestId}: HTTP ${page.status}`);
    rows.push(...page.body.rows);
    offset = page.body.next_offset;
  }
  return rows;
}

function summarise(
  outcomes: readonly E2eOutcome[],
  ctx: {
    format: 'sql' | 'plan';
    modelLatencyMs: number;
    clients: number;
    fileCreateMs: E2eFigures['storage_file_create_ms'];
    databases: number;
    skipped: number;
    concurrent: E2eFigures['concurrent'];
    sampleRows: number;
    unknownQuestions: number;
  },
): E2eFigures {
  const m = outcomes.map((o) => o.measure);
  const count = (v: Verdict) => outcomes.filter((o) => o.verdict === v).length;
  const nodes = new Map<string, number[]>();
  for (const x of m)
    for (const [node, ms] of Object.entries(x.nodeOwnMs)) nodes.set(node, [...(nodes.get(node) ?? []), ms]);
  const notes = [
    'sql_ms is timings.executor: the statement on SQLite plus writing its Parquet artifact',
    'overhead = wall - model - sql, wall measured by the client (keep-alive HTTP)',
    `plan cache off, max_retries 0, sample_rows ${ctx.sampleRows}; larger results are paged through the result route (not timed)`,
  ];
  if (ctx.unknownQuestions)
    notes.push(`${ctx.unknownQuestions} model calls named a question the oracle did not know`);
  return {
    suite: 'e2e',
    questions: outcomes.length,
    format: ctx.format,
    model_latency_ms: ctx.modelLatencyMs,
    clients: ctx.clients,
    event_loop_lag_ms: ctx.concurrent ? { p99: ctx.concurrent.event_loop_lag_p99_ms } : null,
    rss_per_inflight_run_mb: ctx.concurrent ? round3(ctx.concurrent.rss_growth_mb / ctx.clients) : null,
    execution_match: outcomes.length ? round3(count('matched') / outcomes.length) : 0,
    overhead_ms: spread(m.map((x) => x.overheadMs)),
    runs_per_s: ctx.concurrent ? round3(ctx.concurrent.runs / ctx.concurrent.seconds) : 0,
    databases: ctx.databases,
    skipped_data_incomplete: ctx.skipped,
    gold_import_failed: count('not_imported'),
    failed_runs: count('run_failed'),
    mismatched: count('mismatch'),
    storage_file_create_ms: ctx.fileCreateMs,
    wall_ms: spread(m.map((x) => x.wallMs)),
    model_ms: spread(m.map((x) => x.modelMs)),
    model_calls_per_run: mean(m.map((x) => x.modelCalls)),
    sql_ms: spread(m.map((x) => x.sqlMs)),
    outside_engine_ms: spread(m.map((x) => x.wallMs - x.engineMs)),
    node_own_ms_mean: Object.fromEntries([...nodes].map(([node, xs]) => [node, mean(xs)])),
    concurrent: ctx.concurrent,
    notes,
  };
}

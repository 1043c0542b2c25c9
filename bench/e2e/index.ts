/**
 * `npm run bench -- e2e --data DIR [--json OUT] [--format sql|plan] [--model-latency-ms 0] [--clients 8] [--passes 3]
 *  [--warmup 4] [--limit N] [--sample-rows 1000] [--storage DIR] [--sequential-only]
 *  [--profile FILE.cpuprofile] [--heap-profile FILE.heapprofile] [--log]`
 *
 * The whole service on a Spider-layout folder with an oracle model (see core.ts and oracle.ts):
 * execution match, per-run overhead (wall - model - SQL), runs per second, event-loop lag and
 * memory per run in flight with N concurrent clients, each model call answered after
 * --model-latency-ms. Targets at 500 ms and 256 clients: overhead p50 <= 5 ms, p95 <= 15 ms,
 * event-loop lag p99 <= 20 ms, RSS <= 1 MB per run in flight. `--concurrency` is `--clients`.
 */
import { cpus } from 'node:os';
import type { BenchArgs } from '../index';
import { rootLogger } from '../../src/engine/logging/logger';
import { runE2e, type E2eResult } from './core';

/** Above this, file creation in the storage folder is slow enough to weigh on runs/s (see the note printed). */
const SLOW_FILE_CREATE_MS = 0.1;

export async function run(args: BenchArgs): Promise<object> {
  if (!args.data) throw new Error('e2e needs --data DIR (a dataset in Spider layout)');
  const o = args.options;
  const int = (name: string, value: string | boolean | undefined, min = 1): number | undefined => {
    if (value === undefined) return undefined;
    const n = typeof value === 'string' ? Number(value) : NaN;
    if (!Number.isInteger(n) || n < min)
      throw new Error(`e2e: --${name} must be an integer of at least ${min} (got ${String(value)})`);
    return n;
  };
  // One log line per request would bury the table; --log keeps the service's info lines.
  if (!o.log) rootLogger.level = 'warn';
  const result = await runE2e({
    data: args.data,
    concurrency: int('clients', o.clients) ?? int('concurrency', o.concurrency),
    format: formatOf(o.format),
    modelLatencyMs: int('model-latency-ms', o['model-latency-ms'], 0),
    passes: int('passes', o.passes),
    warmup: int('warmup', o.warmup),
    limit: int('limit', o.limit),
    sampleRows: int('sample-rows', o['sample-rows']),
    storage: typeof o.storage === 'string' ? o.storage : undefined,
    sequentialOnly: o['sequential-only'] === true,
    profile: typeof o.profile === 'string' ? o.profile : undefined,
    heapProfile: typeof o['heap-profile'] === 'string' ? o['heap-profile'] : undefined,
    onProgress: (m) => console.error(m),
  });
  print(result);
  return result.figures;
}

function print({ figures: f, outcomes }: E2eResult): void {
  const ms = (x: { p50: number; p95: number }) =>
    `${x.p50.toFixed(2).padStart(9)} ${x.p95.toFixed(2).padStart(9)}`;
  const line = (name: string, x: { p50: number; p95: number }, target = '') =>
    console.log(`${name.padEnd(28)} ${ms(x)}  ${target}`);
  console.log(
    `\ne2e: ${f.questions} questions on ${f.databases} databases (${f.skipped_data_incomplete} skipped: data_incomplete)`,
  );
  console.log(
    `execution match ${(f.execution_match * 100).toFixed(1)}%  (mismatched ${f.mismatched}, runs failed ${f.failed_runs}, gold SQL not importable ${f.gold_import_failed})\n`,
  );
  console.log(`${'per run (sequential), ms'.padEnd(28)} ${'p50'.padStart(9)} ${'p95'.padStart(9)}`);
  line('wall (client)', f.wall_ms);
  line('model (usage.calls)', f.model_ms);
  line('sql (executor, + parquet)', f.sql_ms);
  line('overhead = wall-model-sql', f.overhead_ms, 'target p50 <= 5, p95 <= 15');
  line('  outside engine', f.outside_engine_ms, '(HTTP, trace, response body)');
  if (f.concurrent) {
    line(`overhead, ${f.concurrent.clients} clients`, f.concurrent.overhead_ms);
    line(`wall, ${f.concurrent.clients} clients`, f.concurrent.wall_ms);
    console.log(
      `\nthroughput: ${f.runs_per_s.toFixed(1)} runs/s with ${f.concurrent.clients} clients, model latency ${f.model_latency_ms} ms (${f.concurrent.runs} runs in ${f.concurrent.seconds} s; median of passes ${f.concurrent.passes_runs_per_s.join(', ')})`,
    );
    console.log(
      `event-loop lag p99: ${f.event_loop_lag_ms?.p99.toFixed(2) ?? 'n/a'} ms (target <= 20); RSS per run in flight: ${f.rss_per_inflight_run_mb?.toFixed(3) ?? 'n/a'} MB (target <= 1; peak growth ${f.concurrent.rss_growth_mb} MB over ${f.concurrent.clients} clients)`,
    );
    console.log(
      `process CPU per run: ${f.concurrent.process_cpu_ms_per_run.toFixed(2)} ms (all threads of this process, oracle and clients included; SQLite runner processes not; by pass ${f.concurrent.passes_process_cpu_ms_per_run.join(', ')})`,
    );
    console.log(
      `machine CPU per run: ${f.concurrent.machine_cpu_ms_per_run.toFixed(2)} ms (every core: this process, the SQLite runner processes, the kernel; ${cpus().length} cores; host steal ${f.concurrent.steal === null ? 'n/a' : `${(100 * f.concurrent.steal).toFixed(1)}%`})`,
    );
    console.log(
      `service event loop: ${(100 * f.concurrent.event_loop_busy).toFixed(1)}% busy, ${f.concurrent.event_loop_ms_per_run.toFixed(2)} ms per run; main thread CPU ${f.concurrent.main_thread_cpu_ms_per_run?.toFixed(2) ?? 'n/a'} ms per run`,
    );
    console.log(
      `storage folder: creating a file cost ${f.storage_file_create_ms.before.toFixed(3)} ms of CPU before the passes, ${f.storage_file_create_ms.after.toFixed(3)} ms after (a run creates 3; --storage DIR to measure another disk)`,
    );
    if (f.storage_file_create_ms.before > SLOW_FILE_CREATE_MS)
      console.log(
        `note: creating a file in the storage folder is slow (clean disks measured 0.01 to 0.06 ms). On ext4 without a journal the kernel skips inode numbers freed in the last 1 to 5 minutes, such as the previous run's storage folder: wait 5 minutes between runs, or pass --storage (bench/README.md)`,
      );
    console.log(
      `bench threads busy per run: clients ${f.concurrent.client_thread_ms_per_run.toFixed(2)} ms, oracle ${f.concurrent.oracle_thread_ms_per_run.toFixed(2)} ms`,
    );
  }
  console.log('\nnode time without model calls, mean ms:');
  for (const [node, v] of Object.entries(f.node_own_ms_mean))
    console.log(`  ${node.padEnd(22)} ${v.toFixed(3).padStart(9)}`);
  for (const n of f.notes) console.log(`note: ${n}`);
  const failures = outcomes.filter((o) => o.verdict !== 'matched');
  if (failures.length) console.log('\nnot matched:');
  for (const o of failures)
    console.log(`  #${o.idx} ${o.dbId} ${o.verdict}: ${(o.reason ?? '').slice(0, 200)}`);
}

function formatOf(value: string | boolean | undefined): 'sql' | 'plan' | undefined {
  if (value === undefined) return undefined;
  if (value === 'sql' || value === 'plan') return value;
  throw new Error(`e2e: --format must be sql or plan (got ${String(value)})`);
}

/**
 * Smoke test of `npm run bench -- e2e`: the suite's core on the first questions of spider-dev-a
 * (all on pets_1): the real service, the oracle model over HTTP, scoring and every figure.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runE2e } from '../../bench/e2e/core';
import { rootLogger } from '../../src/engine/logging/logger';

// shared/ sits beside the checkout (as on CI); NL2SQL_SPIDER_DIR points elsewhere.
const DATA =
  process.env.NL2SQL_SPIDER_DIR ?? resolve(__dirname, '..', '..', '..', 'shared', 'eval', 'spider-dev-a');

// The dataset lives outside the repository; without it there is nothing to run this on.
const describeWithData = existsSync(DATA) ? describe : describe.skip;

describeWithData('bench e2e (smoke)', () => {
  const level = rootLogger.level;
  beforeAll(() => {
    rootLogger.level = 'warn';
  });
  afterAll(() => {
    rootLogger.level = level;
  });

  it('answers every question right with the oracle and reports every figure', async () => {
    // --storage: the run's temporary storage folder goes below this one, and is removed at the end.
    const storage = mkdtempSync(join(tmpdir(), 'nl2sql-e2e-storage-'));
    const heapProfile = join(storage, 'last-pass.heapprofile');
    const { figures, outcomes } = await runE2e({
      data: DATA,
      limit: 4,
      concurrency: 2,
      modelLatencyMs: 40,
      storage,
      heapProfile,
    });
    // The heap profile of the last pass: sampled allocations, some of them the engine's.
    const heap = JSON.parse(readFileSync(heapProfile, 'utf8')) as { head: { children: unknown[] } };
    expect(heap.head.children.length).toBeGreaterThan(0);
    expect(JSON.stringify(heap)).toContain('/src/engine/');
    rmSync(heapProfile);
    expect(readdirSync(storage)).toEqual([]);
    rmSync(storage, { recursive: true, force: true });
    expect(outcomes.map((o) => [o.idx, o.verdict, o.reason])).toEqual([
      [0, 'matched', null],
      [1, 'matched', null],
      [2, 'matched', null],
      [3, 'matched', null],
    ]);
    expect(figures.suite).toBe('e2e');
    expect(figures.questions).toBe(4);
    expect(figures.execution_match).toBe(1);
    expect(figures.databases).toBe(1);
    // Two model calls per run (the SQL draft and the answer: one datasource, one intent, no
    // decomposer call) over real HTTP, and a real statement.
    expect(figures.model_calls_per_run).toBe(2);
    // In the concurrent passes each call waited the oracle's latency (the sequential one runs without).
    expect(figures.model_latency_ms).toBe(40);
    expect(figures.clients).toBe(2);
    expect(figures.concurrent!.wall_ms.p50).toBeGreaterThanOrEqual(2 * 40);
    expect(figures.wall_ms.p50).toBeLessThan(figures.concurrent!.wall_ms.p50);
    expect(figures.event_loop_lag_ms!.p99).toBeGreaterThan(0);
    expect(figures.rss_per_inflight_run_mb).toBeGreaterThanOrEqual(0);
    expect(figures.sql_ms.p50).toBeGreaterThan(0);
    expect(figures.wall_ms.p50).toBeGreaterThan(figures.sql_ms.p50);
    for (const o of outcomes) {
      expect(o.measure.overheadMs).toBeCloseTo(o.measure.wallMs - o.measure.modelMs - o.measure.sqlMs, 6);
      expect(Object.keys(o.measure.nodeOwnMs)).toEqual(
        expect.arrayContaining(['ast_planner', 'executor', 'answer_synthesizer']),
      );
    }
    expect(figures.overhead_ms.p95).toBeGreaterThanOrEqual(figures.overhead_ms.p50);
    expect(figures.concurrent).toMatchObject({ clients: 2, runs: 4 });
    expect(figures.runs_per_s).toBeGreaterThan(0);
    // Three passes by default, the median one reported; where the CPU went, per run.
    const c = figures.concurrent!;
    expect(c.passes_runs_per_s).toHaveLength(3);
    expect(c.passes_process_cpu_ms_per_run).toHaveLength(3);
    expect(c.passes_process_cpu_ms_per_run).toContain(c.process_cpu_ms_per_run);
    expect([...c.passes_runs_per_s].sort((a, b) => a - b)[1]).toBe(figures.runs_per_s);
    expect(c.event_loop_busy).toBeGreaterThan(0);
    expect(c.event_loop_busy).toBeLessThanOrEqual(1);
    expect(c.machine_cpu_ms_per_run).toBeGreaterThan(0);
    expect(c.oracle_thread_ms_per_run).toBeGreaterThan(0);
    expect(c.client_thread_ms_per_run).toBeGreaterThan(0);
    if (process.platform === 'linux') expect(c.main_thread_cpu_ms_per_run).toEqual(expect.any(Number));
    // The storage folder's reference cost, measured in the same run.
    expect(figures.storage_file_create_ms.before).toBeGreaterThan(0);
    expect(figures.storage_file_create_ms.after).toBeGreaterThan(0);
  });
});

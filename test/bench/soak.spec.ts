/** Smoke test of `npm run bench -- soak`: a few seconds of load with each fault injected once. */
import { runSoak } from '../../bench/soak';
import { rootLogger } from '../../src/engine/logging/logger';

jest.setTimeout(120_000);

it('keeps serving through injected faults and reports every figure at the start and the end', async () => {
  const level = rootLogger.level;
  rootLogger.level = 'error';
  try {
    const f = await runSoak({ minutes: 0.15, clients: 6, modelLatencyMs: 50, faultEveryS: 1 });
    expect(f.suite).toBe('soak');
    expect(f.runs).toBeGreaterThan(10);
    expect(
      f.faults.killed_connection + f.faults.abandoned_csv + f.faults.abandoned_stream,
    ).toBeGreaterThanOrEqual(3);
    // A killed connection fails the run that held it; the rest succeed.
    expect(f.runs_failed).toBeLessThan(f.runs / 4);
    for (const s of [f.start, f.end]) {
      expect(s.rss_mb).toBeGreaterThan(0);
      expect(s.open_fds).toBeGreaterThan(0);
      // Never more server connections than the two pools hold (4 each).
      expect(s.db_connections).toBeLessThanOrEqual(8);
    }
    expect(f.end.temp_files_mb).toBe(0);
  } finally {
    rootLogger.level = level;
  }
});

import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalResultStore, LocalTraceStore, purge } from '../../../src/engine/storage';
import { numberedRows, tempRoot } from '../../support/storage-helpers';

const DAY_S = 24 * 60 * 60;

function age(path: string, days: number, now: Date): void {
  const t = now.getTime() / 1000 - days * DAY_S;
  utimesSync(path, t, t);
}

describe('purge', () => {
  const root = tempRoot('purge');
  const resultsPath = join(root.path, 'results');
  const tracesPath = join(root.path, 'traces');
  const results = new LocalResultStore(resultsPath);
  const traces = new LocalTraceStore(tracesPath);
  const now = new Date();
  afterAll(async () => {
    await results.close();
    root.remove();
  });

  it('removes only result folders and traces older than each store allows', async () => {
    await results.writeResult('acme', 'old-run', 'r', numberedRows(3));
    await results.writeResult('acme', 'new-run', 'r', numberedRows(3));
    await results.writeResult('beta', 'mid-run', 'r', numberedRows(3));
    age(join(resultsPath, 'acme', 'old-run'), 31, now);
    age(join(resultsPath, 'acme', 'new-run'), 29, now);
    age(join(resultsPath, 'beta', 'mid-run'), 10, now);
    const oldTrace = await traces.writeTrace('acme', 'old-run', { q: 1 });
    const newTrace = await traces.writeTrace('acme', 'new-run', { q: 2 });
    const leftover = join(tracesPath, 'acme', '.crashed.json.abc.tmp');
    writeFileSync(leftover, '{');
    age(oldTrace, 8, now);
    age(newTrace, 6, now);
    age(leftover, 8, now);

    const report = await purge(
      { results: { path: resultsPath, maxAgeDays: 30 }, traces: { path: tracesPath, maxAgeDays: 7 } },
      now,
    );

    expect(report).toEqual({ removed: { results: 1, traces: 2 }, errors: [] });
    expect(existsSync(join(resultsPath, 'acme', 'old-run'))).toBe(false);
    expect(existsSync(join(resultsPath, 'acme', 'new-run', 'r.parquet'))).toBe(true);
    expect(existsSync(join(resultsPath, 'beta', 'mid-run'))).toBe(true);
    expect(existsSync(oldTrace)).toBe(false);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(newTrace)).toBe(true);
    await expect(results.readPage('acme', 'old-run', 'r')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await results.readPage('acme', 'new-run', 'r')).total_rows).toBe(3);
  });

  it('defaults to 30 days', async () => {
    const dir = join(resultsPath, 'acme', 'default-age');
    mkdirSync(dir, { recursive: true });
    age(dir, 30.5, now);
    const report = await purge({ results: { path: resultsPath } }, now);
    expect(report.removed.results).toBe(1);
    expect(existsSync(dir)).toBe(false);
  });

  it('treats missing store folders as empty', async () => {
    const report = await purge(
      { results: { path: join(root.path, 'nowhere') }, traces: { path: join(root.path, 'nothing') } },
      now,
    );
    expect(report).toEqual({ removed: { results: 0, traces: 0 }, errors: [] });
  });

  it('reports a failure instead of throwing', async () => {
    const notADir = join(root.path, 'a-file');
    writeFileSync(notADir, 'x');
    const report = await purge({ results: { path: notADir } }, now);
    expect(report.removed.results).toBe(0);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toContain(notADir);
  });
});

import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { run } from '../../bench/results';

const ROOT = resolve(__dirname, '..', '..');

describe('bench results (smoke)', () => {
  it('runs from the command line on a small result and writes every figure to --json', () => {
    const out = join(tmpdir(), `nl2sql-bench-results-${process.pid}.json`);
    try {
      const child = spawnSync(
        process.execPath,
        ['-r', '@swc-node/register', 'bench/index.ts', 'results', '--rows', '20000', '--json', out],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      );
      expect(child.stderr).toBe('');
      expect(child.status).toBe(0);
      expect(child.stdout).toContain('csv / duckdb');
      const figures = JSON.parse(readFileSync(out, 'utf8'));
      expect(figures.rows).toBe(20000);
      for (const value of [
        figures.page_ms.start,
        figures.page_ms.middle,
        figures.page_ms.end,
        figures.csv_mb_per_s,
        figures.duckdb_copy_mb_per_s,
        figures.arrow_rows_per_s,
        figures.csv_rows_per_s,
        figures.arrow_vs_csv,
      ]) {
        expect(value).toBeGreaterThan(0);
      }
      expect(typeof figures.csv_rss_growth_mb).toBe('number');
      // 20,000 rows of about 40 bytes: the export really wrote the whole result.
      expect(figures.csv_mb).toBeGreaterThan(0.5);
      // The Arrow export wrote it too: 20,000 rows of an Int64, a Float64 and text at least.
      expect(figures.arrow_mb).toBeGreaterThan(0.5);
      expect(typeof figures.arrow_rss_growth_mb).toBe('number');
      expect(child.stdout).toContain('arrow / csv');
    } finally {
      rmSync(out, { force: true });
    }
  });

  it('refuses a row count it cannot page through', async () => {
    await expect(run({ options: { rows: '5' } })).rejects.toThrow(/--rows/);
  });
});

/**
 * `npm run bench -- results [--rows N] [--json OUT]`
 *
 * Writes a result of N rows (default 10 million) by streaming batches through the result store's
 * own `writeResult` (the path a run takes), then measures:
 * - page latency at offset 0, the middle and the end (median of several reads of 100 rows);
 * - CSV export throughput of `streamCsv` into a file, next to DuckDB's own
 *   `COPY ... TO csv` of the same parquet file in the same run, and the export's peak RSS growth;
 * - the Arrow IPC export (`streamArrow`, the `.arrow` route) of the same result into a file: rows
 *   per second against the CSV export's, process CPU of each, and its peak RSS growth.
 * Targets: page end/start <= 1.5; CSV >= 0.5 of DuckDB's speed; RSS growth < 64 MB (the CSV
 * export; the Arrow export's second run, after what the first leaves for good).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, rmSync, statSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BenchArgs } from '../index';
import type { Cell, ResultBatch, ResultColumn } from '../../src/engine/datasources/adapter';
import { LocalResultStore } from '../../src/engine/storage';

const DEFAULT_ROWS = 10_000_000;
const BATCH_ROWS = 10_000;
const PAGE_LIMIT = 100;
const PAGE_REPEATS = 7;
const MB = 1_000_000;

const COLUMNS: ResultColumn[] = [
  { name: 'id', kind: 'integer' },
  { name: 'customer', kind: 'text' },
  { name: 'amount', kind: 'float' },
  { name: 'active', kind: 'boolean' },
];

export interface ResultsFigures {
  readonly suite: 'results';
  readonly rows: number;
  readonly generated_by: string;
  readonly write_s: number;
  /** Peak RSS growth while writing: the result must stream to disk, not collect in memory. */
  readonly write_rss_growth_mb: number;
  readonly page_ms: { readonly start: number; readonly middle: number; readonly end: number };
  readonly page_end_start_ratio: number;
  readonly csv_mb: number;
  readonly csv_mb_per_s: number;
  readonly duckdb_copy_mb_per_s: number;
  readonly csv_vs_duckdb: number;
  readonly csv_rss_growth_mb: number;
  /** CPU of the whole process (every thread: DuckDB's too) while exporting. */
  readonly csv_cpu_s: number;
  readonly arrow_mb: number;
  readonly csv_rows_per_s: number;
  readonly arrow_rows_per_s: number;
  /** Arrow's rows per second over CSV's (the files differ in size, so rows, not bytes). */
  readonly arrow_vs_csv: number;
  readonly arrow_cpu_s: number;
  readonly arrow_rss_growth_mb: number;
  /** The same export run again at once: what each further download holds. */
  readonly arrow_again_rss_growth_mb: number;
  readonly targets_met: {
    readonly page_ratio: boolean;
    readonly csv_speed: boolean;
    readonly rss: boolean;
    readonly arrow_rss: boolean;
  };
}

/** Rows like a real result: ids, names (every 7th needs CSV quoting), amounts, flags and nulls. */
async function* syntheticBatches(total: number): AsyncGenerator<ResultBatch> {
  for (let start = 0; start < total; start += BATCH_ROWS) {
    const end = Math.min(total, start + BATCH_ROWS);
    const rows: Cell[][] = new Array<Cell[]>(end - start);
    for (let i = start; i < end; i++) {
      const name = i % 7 === 0 ? `Customer ${i}, "VIP"` : `Customer ${i}`;
      rows[i - start] = [i, name, i % 11 === 0 ? null : (i % 10_000) / 100, i % 2 === 0];
    }
    yield { columns: COLUMNS, rows };
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function pageMs(store: LocalResultStore, offset: number): Promise<number> {
  await store.readPage('bench', 'run', 'result', { offset, limit: PAGE_LIMIT }); // warm-up
  const times: number[] = [];
  for (let i = 0; i < PAGE_REPEATS; i++) {
    const t0 = performance.now();
    await store.readPage('bench', 'run', 'result', { offset, limit: PAGE_LIMIT });
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Peak RSS growth (MB) from now until `stop()`, sampled every 10 ms. */
function rssSampler(): { stop(): number } {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      return (peak - baseline) / MB;
    },
  };
}

/** One export of the result into `out`: wall seconds, process CPU seconds, peak RSS growth. */
async function timedExport(
  open: () => Promise<NodeJS.ReadableStream>,
  out: string,
): Promise<{ seconds: number; cpuSeconds: number; rssGrowthMb: number }> {
  const rss = rssSampler();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  try {
    await pipeline(await open(), createWriteStream(out));
  } finally {
    rss.stop();
  }
  const used = process.cpuUsage(cpu);
  return {
    seconds: (performance.now() - t0) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    rssGrowthMb: rss.stop(),
  };
}

async function duckdbCopySeconds(parquet: string, out: string): Promise<number> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const t0 = performance.now();
    await connection.run(
      `COPY (SELECT * FROM read_parquet('${parquet.replace(/'/g, "''")}')) TO '${out.replace(/'/g, "''")}' (FORMAT csv, HEADER)`,
    );
    return (performance.now() - t0) / 1000;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * The harness parses only its own options loosely, so `--rows 5000` arrives as `rows: true` with
 * the number left in argv; both that and `--rows=5000` are read here.
 */
function optionValue(args: BenchArgs, name: string): string | undefined {
  const value = args.options[name];
  if (typeof value === 'string') return value;
  if (value !== true) return undefined;
  const argv = process.argv;
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : undefined;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

export async function run(args: BenchArgs): Promise<ResultsFigures> {
  const rowsOption = optionValue(args, 'rows');
  const rows = rowsOption === undefined ? DEFAULT_ROWS : Number(rowsOption);
  if (!Number.isSafeInteger(rows) || rows < PAGE_LIMIT)
    throw new Error(`--rows must be an integer of at least ${PAGE_LIMIT}`);
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-bench-results-'));
  const store = new LocalResultStore(join(dir, 'results'));
  try {
    console.log(`results: writing ${rows.toLocaleString('en-US')} rows through writeResult...`);
    const writeRss = rssSampler();
    let t0 = performance.now();
    const { ref } = await store.writeResult('bench', 'run', 'result', syntheticBatches(rows));
    const writeS = (performance.now() - t0) / 1000;
    const writeRssGrowthMb = writeRss.stop();
    const parquet = join(dir, 'results', 'bench', 'run', 'result.parquet');

    const start = await pageMs(store, 0);
    const middle = await pageMs(store, Math.floor(rows / 2));
    const end = await pageMs(store, rows - PAGE_LIMIT);

    const ours = join(dir, 'export.csv');
    const csv = await timedExport(() => store.streamCsv('bench', 'run', 'result'), ours);
    const csvMb = statSync(ours).size / MB;
    const arrowFile = join(dir, 'export.arrows');
    const arrow = await timedExport(() => store.streamArrow('bench', 'run', 'result'), arrowFile);
    // Again: the first export's growth includes what DuckDB and the allocator keep for good (its
    // connections' buffers), the second only what a download holds.
    const arrowAgain = await timedExport(() => store.streamArrow('bench', 'run', 'result'), arrowFile);
    const arrowMb = statSync(arrowFile).size / MB;
    const reference = join(dir, 'duckdb.csv');
    t0 = performance.now();
    const copyS = await duckdbCopySeconds(parquet, reference);
    const copyMb = statSync(reference).size / MB;

    const csvMbPerS = csvMb / csv.seconds;
    const duckMbPerS = copyMb / copyS;
    const figures: ResultsFigures = {
      suite: 'results',
      rows: ref.row_count,
      generated_by: 'writeResult (streamed batches of 10,000 rows)',
      write_s: round(writeS),
      write_rss_growth_mb: round(writeRssGrowthMb, 1),
      page_ms: { start: round(start), middle: round(middle), end: round(end) },
      page_end_start_ratio: round(end / start),
      csv_mb: round(csvMb, 1),
      csv_mb_per_s: round(csvMbPerS, 1),
      duckdb_copy_mb_per_s: round(duckMbPerS, 1),
      csv_vs_duckdb: round(csvMbPerS / duckMbPerS),
      csv_rss_growth_mb: round(csv.rssGrowthMb, 1),
      csv_cpu_s: round(csv.cpuSeconds),
      arrow_mb: round(arrowMb, 1),
      csv_rows_per_s: Math.round(rows / csv.seconds),
      arrow_rows_per_s: Math.round(rows / arrow.seconds),
      arrow_vs_csv: round(csv.seconds / arrow.seconds),
      arrow_cpu_s: round(arrow.cpuSeconds),
      arrow_rss_growth_mb: round(arrow.rssGrowthMb, 1),
      arrow_again_rss_growth_mb: round(arrowAgain.rssGrowthMb, 1),
      targets_met: {
        page_ratio: end / start <= 1.5,
        csv_speed: csvMbPerS / duckMbPerS >= 0.5,
        rss: csv.rssGrowthMb < 64,
        arrow_rss: arrowAgain.rssGrowthMb < 64,
      },
    };
    printTable(figures);
    return figures;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printTable(f: ResultsFigures): void {
  const ok = (met: boolean) => (met ? 'ok' : 'MISSED');
  console.table({
    'write (s)': { value: f.write_s, target: '', status: '' },
    'write RSS growth (MB)': { value: f.write_rss_growth_mb, target: '', status: '' },
    'page start (ms)': { value: f.page_ms.start, target: '', status: '' },
    'page middle (ms)': { value: f.page_ms.middle, target: '', status: '' },
    'page end (ms)': { value: f.page_ms.end, target: '', status: '' },
    'page end/start': {
      value: f.page_end_start_ratio,
      target: '<= 1.5',
      status: ok(f.targets_met.page_ratio),
    },
    'csv (MB/s)': { value: f.csv_mb_per_s, target: '', status: '' },
    'duckdb COPY csv (MB/s)': { value: f.duckdb_copy_mb_per_s, target: '', status: '' },
    'csv / duckdb': { value: f.csv_vs_duckdb, target: '>= 0.5', status: ok(f.targets_met.csv_speed) },
    'csv RSS growth (MB)': { value: f.csv_rss_growth_mb, target: '< 64', status: ok(f.targets_met.rss) },
    'csv CPU (s)': { value: f.csv_cpu_s, target: '', status: '' },
    'arrow (MB)': { value: f.arrow_mb, target: '', status: '' },
    'csv (rows/s)': { value: f.csv_rows_per_s, target: '', status: '' },
    'arrow (rows/s)': { value: f.arrow_rows_per_s, target: '', status: '' },
    'arrow / csv (rows/s)': { value: f.arrow_vs_csv, target: '', status: '' },
    'arrow CPU (s)': { value: f.arrow_cpu_s, target: '', status: '' },
    'arrow RSS growth, first (MB)': { value: f.arrow_rss_growth_mb, target: '', status: '' },
    'arrow RSS growth, again (MB)': {
      value: f.arrow_again_rss_growth_mb,
      target: '< 64',
      status: ok(f.targets_met.arrow_rss),
    },
  });
}

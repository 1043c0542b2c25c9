/**
 * `npm run bench -- values [--demo-dir DIR] [--questions N]`
 *
 * The value index where it is large. (1) The demo database (built here unless DIR already has
 * it; about 1 million order lines): one index build through the engine as POST /index/demo runs
 * it, with its seconds, values indexed and the seconds spent reading them. (2) Lookup latency per
 * question over the demo's index, with questions that name a stored value as stored, in another
 * case, and misspelt. (3) The same at the per-datasource cap (200 000 values of generated words),
 * the worst case on data we do not have.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchArgs } from '../index';
import { createEngine } from '../../src/create-engine';
import { IndexAdmin } from '../../src/engine/admin/index-admin.service';
import { SchemaIndex } from '../../src/engine/index/schema-index';
import { DEFAULT_VALUE_LIMITS } from '../../src/engine/index/values/collect';
import { ValueIndex, type StoredValue } from '../../src/engine/index/values/value-index';

export interface ValueFigures {
  suite: 'values';
  demo: { build_seconds: number; values: number; values_seconds: number; entries: number };
  demo_lookup_ms: { p50: number; p95: number; max: number };
  demo_found: number;
  capped: { values: number; lookup_ms: { p50: number; p95: number; max: number }; found: number };
}

export async function run(args: BenchArgs): Promise<ValueFigures> {
  const o = args.options;
  const work = mkdtempSync(join(tmpdir(), 'bench-values-'));
  const demoDir = typeof o['demo-dir'] === 'string' ? resolve(o['demo-dir']) : work;
  const n = typeof o.questions === 'string' ? Number(o.questions) : 500;
  const engine = await createEngine({
    api: { role: 'admin' },
    datasources: [
      { id: 'demo', type: 'duckdb', connection: { path: join(demoDir, 'demo.duckdb'), demo: true } },
    ],
    storage: { index: { path: join(work, 'index') }, results: { path: join(work, 'results') } },
  });
  try {
    const stats = await engine.get(IndexAdmin).indexDatasource('demo');
    const index = engine.get(SchemaIndex).require();
    const values = index.values();
    const stored = sampleStored(values, n);
    const questions = stored.map((v, i) => question(v.value, i));
    const found = foundShare(values, questions, stored);
    const figures: ValueFigures = {
      suite: 'values',
      demo: {
        build_seconds: stats.seconds,
        values: stats.values,
        values_seconds: stats.values_seconds,
        entries: stats.entries,
      },
      demo_lookup_ms: timeLookups(values, questions),
      demo_found: found,
      capped: cappedWorstCase(n),
    };
    console.log(JSON.stringify(figures, null, 2));
    return figures;
  } finally {
    await engine.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every k-th stored value, so all columns are asked about. */
function sampleStored(values: ValueIndex, n: number): StoredValue[] {
  const all = values.all();
  const step = Math.max(1, Math.floor(all.length / n));
  return all.filter((_, i) => i % step === 0).slice(0, n);
}

/** A question naming the value: as stored, lower-cased, or with one letter dropped (past the third). */
function question(value: string, i: number): string {
  let spelled = i % 3 === 1 ? value.toLowerCase() : value;
  if (i % 3 === 2) {
    const at = [...value].findIndex((c, k) => k >= 3 && /\p{L}/u.test(c));
    if (at >= 0 && value.length > 6) spelled = value.slice(0, at) + value.slice(at + 1);
  }
  return `How many orders in 2024 came from customers linked to ${spelled}, by month?`;
}

/** Share of questions whose lookup returns the value they were made from. */
function foundShare(values: ValueIndex, questions: readonly string[], asked: readonly StoredValue[]): number {
  const found = questions.filter((q, i) => values.lookup(q).some((m) => m.value === asked[i]!.value)).length;
  return Math.round((found / Math.max(1, questions.length)) * 1000) / 1000;
}

function timeLookups(
  values: ValueIndex,
  questions: readonly string[],
): { p50: number; p95: number; max: number } {
  for (const q of questions.slice(0, 20)) values.lookup(q);
  const ms = questions.map((q) => {
    const t0 = performance.now();
    values.lookup(q);
    return performance.now() - t0;
  });
  return { p50: round(pct(ms, 50)), p95: round(pct(ms, 95)), max: round(Math.max(...ms)) };
}

/** 200 000 values of 1-4 generated words over a 40 000-word vocabulary: the cap of one datasource. */
export function cappedWorstCase(
  n: number,
  size = DEFAULT_VALUE_LIMITS.perDatasource,
): ValueFigures['capped'] {
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = () =>
    Array.from({ length: 4 + Math.floor(rand() * 6) }, () => letters[Math.floor(rand() * 26)]).join('');
  const vocabulary = Array.from({ length: 40_000 }, word);
  const stored: StoredValue[] = [];
  for (let i = 0; i < size; i++) {
    const words = Array.from(
      { length: 1 + Math.floor(rand() * 4) },
      () => vocabulary[Math.floor(rand() * vocabulary.length)],
    );
    stored.push({
      datasourceId: 'big',
      table: `t${i % 50}`,
      column: `c${i % 7}`,
      value: words.join(' '),
      frequency: 1,
    });
  }
  const values = new ValueIndex(stored);
  const asked = Array.from({ length: n }, (_, i) => stored[(i * 397) % stored.length]!);
  const questions = asked.map((v, i) => question(v.value, i));
  const timed = timeLookups(values, questions);
  return { values: values.size, lookup_ms: timed, found: foundShare(values, questions, asked) };
}

function pct(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

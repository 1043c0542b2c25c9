/**
 * `npm run bench -- roundtrip --data DIR [--json OUT] [--dialects sqlite,duckdb] [--db a,b] [--limit N]`
 * Gold SQL -> plan -> SQL per dialect -> results, compared with the gold results on SQLite.
 * Prints a table per dialect and Spider hardness, then every failure with its reason.
 */
import type { Dialect } from '../../src/engine/datasources/schema';
import type { BenchArgs } from '../index';
import { ALL_DIALECTS, figures, runRoundtrip, type RoundtripResult } from './core';

export async function run(args: BenchArgs): Promise<object> {
  if (!args.data) throw new Error('roundtrip needs --data DIR (a dataset in Spider layout)');
  const list = (v: unknown) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  const dialects = list(args.options.dialects) as Dialect[] | undefined;
  const bad = dialects?.find((d) => !ALL_DIALECTS.includes(d));
  if (bad) throw new Error(`unknown dialect "${bad}" (one of ${ALL_DIALECTS.join(', ')})`);
  const limit = typeof args.options.limit === 'string' ? Number(args.options.limit) : undefined;
  const result = await runRoundtrip({
    data: args.data,
    dialects,
    databases: list(args.options.db),
    limit,
    onProgress: (m) => console.error(m),
  });
  print(result);
  return figures(result);
}

function print(r: RoundtripResult): void {
  const f = figures(r);
  const hardness = ['easy', 'medium', 'hard', 'extra'];
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(7);
  console.log(`\nroundtrip: ${r.questions} scorable questions`);
  console.log(
    `${'dialect'.padEnd(9)} ${'imported'.padStart(8)} ${'validated'.padStart(9)} ${'matched'.padStart(8)}  ${hardness.map((h) => h.padStart(7)).join(' ')}`,
  );
  for (const d of r.dialects) {
    const x = f.dialects[d]!;
    const byH = hardness.map((h) => {
      const qs = r.outcomes.filter((o) => o.hardness === h);
      return qs.length ? pct(qs.filter((o) => o.dialects[d]?.matched).length / qs.length) : '      -';
    });
    console.log(
      `${d.padEnd(9)} ${pct(x.imported).padStart(8)} ${pct(x.validated).padStart(9)} ${pct(x.matched).padStart(8)}  ${byH.join(' ')}`,
    );
  }
  console.log(
    `(hardness columns: matched per Spider hardness; counts ${hardness.map((h) => `${h} ${r.outcomes.filter((o) => o.hardness === h).length}`).join(', ')})`,
  );
  const failures = r.outcomes.filter((o) => !o.validated || r.dialects.some((d) => !o.dialects[d]?.matched));
  if (failures.length) console.log('\nfailures:');
  for (const o of failures) {
    console.log(`#${o.idx} ${o.dbId} [${o.hardness}] ${o.sql}`);
    if (o.importError) console.log(`   import: ${o.importError}`);
    else if (!o.validated) console.log(`   validate: ${o.validationProblems}`);
    for (const d of r.dialects) {
      const x = o.dialects[d];
      if (x && !x.matched && !o.importError) console.log(`   ${d} ${x.stage}: ${x.reason}`);
    }
  }
}

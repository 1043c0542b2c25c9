/**
 * The roundtrip measurement: for every scorable question, gold SQL (SQLite) -> importSql -> plan ->
 * validatePlan -> compilePlan per dialect -> run -> compare with the gold result on SQLite.
 * A question is scorable when its gold SQL executes and its data is complete.
 * `matched` is measured on every imported plan, validated or not, so the two figures stay separate.
 */
import type { Dialect, SchemaSnapshot } from '../../src/engine/datasources/schema';
import { compilePlan, importSql, validatePlan, type Plan } from '../../src/engine/plan';
import { loadSpider, type SpiderDataset } from '../support/spider';
import { compareResults } from './compare';
import {
  DEFAULT_SERVERS,
  openDuckDb,
  openMysql,
  openPostgres,
  openSqlite,
  runPrefix,
  type Engine,
  type ServerSettings,
} from './engines';
import { introspectSqlite } from '../support/sqlite-snapshot';

export const ALL_DIALECTS: readonly Dialect[] = ['sqlite', 'duckdb', 'postgres', 'mysql'];
const ROW_CAP = 100_000;

export type Stage = 'import' | 'validate' | 'compile' | 'execute' | 'compare';

export interface DialectOutcome {
  readonly matched: boolean;
  readonly stage?: Stage;
  readonly reason?: string;
}

export interface QuestionOutcome {
  readonly idx: number;
  readonly dbId: string;
  readonly hardness: string;
  readonly sql: string;
  readonly imported: boolean;
  readonly validated: boolean;
  readonly importError?: string;
  readonly validationProblems?: string;
  readonly dialects: Partial<Record<Dialect, DialectOutcome>>;
}

export interface RoundtripOptions {
  readonly data: string;
  readonly dialects?: readonly Dialect[];
  /** Only these databases. */
  readonly databases?: readonly string[];
  /** At most this many questions (the first ones, in dev.json order). */
  readonly limit?: number;
  readonly servers?: ServerSettings;
  readonly onProgress?: (msg: string) => void;
}

export interface RoundtripResult {
  readonly questions: number;
  readonly outcomes: readonly QuestionOutcome[];
  readonly dialects: readonly Dialect[];
}

export function scorableQuestions(ds: SpiderDataset, opts: Pick<RoundtripOptions, 'databases' | 'limit'>) {
  let qs = ds.questions.filter((q) => {
    const a = ds.annotations.get(q.idx);
    return ds.gold.has(q.idx) && ds.databases.includes(q.dbId) && (!a || (a.executes && !a.dataIncomplete));
  });
  if (opts.databases?.length) qs = qs.filter((q) => opts.databases!.includes(q.dbId));
  if (opts.limit !== undefined) qs = qs.slice(0, opts.limit);
  return qs;
}

export async function runRoundtrip(opts: RoundtripOptions): Promise<RoundtripResult> {
  const ds = loadSpider(opts.data);
  const dialects = opts.dialects ?? ALL_DIALECTS;
  const servers = opts.servers ?? DEFAULT_SERVERS;
  const questions = scorableQuestions(ds, opts);
  const byDb = new Map<string, typeof questions>();
  for (const q of questions) byDb.set(q.dbId, [...(byDb.get(q.dbId) ?? []), q]);
  const prefix = runPrefix();
  const outcomes: QuestionOutcome[] = [];
  for (const [dbId, qs] of byDb) {
    opts.onProgress?.(`${dbId}: ${qs.length} questions`);
    const schema = introspectSqlite(ds.sqlitePath(dbId), dbId);
    const engines = new Map<Dialect, Engine | Error>();
    // An interrupted run still drops the databases it created.
    const onSignal = () => {
      const open = [...engines.values()].filter((e): e is Engine => !(e instanceof Error));
      void Promise.allSettled(open.map((e) => e.close())).then(() => process.exit(130));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      for (const d of dialects)
        engines.set(
          d,
          await openEngine(d, ds.sqlitePath(dbId), schema, `${prefix}_${dbId}`.toLowerCase(), servers).catch(
            (e: Error) => e,
          ),
        );
      for (const q of qs) outcomes.push(await runQuestion(q, ds, schema, engines));
    } finally {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      for (const e of engines.values()) if (!(e instanceof Error)) await e.close().catch(() => undefined);
    }
  }
  return { questions: questions.length, outcomes, dialects };
}

function openEngine(
  d: Dialect,
  sqlitePath: string,
  schema: SchemaSnapshot,
  dbName: string,
  servers: ServerSettings,
): Promise<Engine> {
  switch (d) {
    case 'sqlite':
      return openSqlite(sqlitePath);
    case 'duckdb':
      return openDuckDb(sqlitePath, schema);
    case 'postgres':
      return openPostgres(sqlitePath, schema, dbName, servers);
    case 'mysql':
      return openMysql(sqlitePath, schema, dbName, servers);
  }
}

async function runQuestion(
  q: { idx: number; dbId: string; query: string },
  ds: SpiderDataset,
  schema: SchemaSnapshot,
  engines: Map<Dialect, Engine | Error>,
): Promise<QuestionOutcome> {
  const hardness = ds.annotations.get(q.idx)?.hardness ?? 'unknown';
  const gold = ds.gold.get(q.idx)!;
  const base = { idx: q.idx, dbId: q.dbId, hardness, sql: q.query };
  let plan: Plan;
  try {
    plan = importSql(q.query, 'sqlite', schema);
  } catch (err) {
    const reason = describe(err);
    const dialects = Object.fromEntries(
      [...engines.keys()].map((d) => [d, { matched: false, stage: 'import' as const, reason }]),
    );
    return { ...base, imported: false, validated: false, importError: reason, dialects };
  }
  const v = validatePlan(plan, schema, { datasourceId: q.dbId });
  const dialects: Partial<Record<Dialect, DialectOutcome>> = {};
  for (const [d, engine] of engines) {
    if (engine instanceof Error) {
      dialects[d] = { matched: false, stage: 'execute', reason: `engine unavailable: ${engine.message}` };
      continue;
    }
    let compiled;
    try {
      compiled = compilePlan(plan, d, { schema, rowCap: ROW_CAP });
    } catch (err) {
      dialects[d] = { matched: false, stage: 'compile', reason: describe(err) };
      continue;
    }
    let rows;
    try {
      rows = await engine.run(compiled.sql, compiled.params);
    } catch (err) {
      dialects[d] = { matched: false, stage: 'execute', reason: `${describe(err)} | ${compiled.sql}` };
      continue;
    }
    const cmp = compareResults(gold.rows, rows, gold.ordered);
    dialects[d] = cmp.equal
      ? { matched: true }
      : { matched: false, stage: 'compare', reason: `${cmp.reason} | ${compiled.displaySql}` };
  }
  return {
    ...base,
    imported: true,
    validated: v.ok,
    ...(v.ok
      ? {}
      : { validationProblems: v.problems.map((p) => `${p.code} ${p.path}: ${p.message}`).join('; ') }),
    dialects,
  };
}

function describe(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as any).code === 'string') {
    return `${String((err as any).code)}: ${String((err as any).message)}`;
  }
  return err instanceof Error ? err.message : String(err);
}

export interface Figures {
  readonly suite: 'roundtrip';
  readonly questions: number;
  readonly dialects: Record<string, { imported: number; validated: number; matched: number }>;
}

export function figures(r: RoundtripResult): Figures {
  const n = r.outcomes.length || 1;
  const frac = (k: number) => Math.round((k / n) * 10000) / 10000;
  const imported = r.outcomes.filter((o) => o.imported).length;
  const validated = r.outcomes.filter((o) => o.validated).length;
  return {
    suite: 'roundtrip',
    questions: r.questions,
    dialects: Object.fromEntries(
      r.dialects.map((d) => [
        d,
        {
          imported: frac(imported),
          validated: frac(validated),
          matched: frac(r.outcomes.filter((o) => o.dialects[d]?.matched).length),
        },
      ]),
    ),
  };
}

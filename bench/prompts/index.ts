/**
 * `npm run bench -- prompts --data DIR [--format sql|plan] [--limit N] [--json OUT] [--show-misses]`
 *
 * Builds the schema and value index over every database of a Spider-layout folder (local
 * embedder, values read from the SQLite files), then renders, without calling a model, the
 * prompts every question would get through the service's own prompt functions, and counts them
 * with a real tokenizer (o200k): input tokens per step (planner: system, question, examples and
 * its tool schema; answer: the gold result as the answer step would see it; decomposer only when
 * the service would ask it: several routing candidates or signs of several intents), model calls
 * per question, schema_recall (gold tables and columns in the planner's prompt), value_recall
 * (text literals of the gold SQL, LIKE patterns and numbers left out, in the planner's prompt
 * without its examples: system text and question; and in the schema text alone) and the same for
 * today's baseline (the first 3 sorted samples of each
 * column, no value index) in the same run. Routing is the index's among all databases of DIR;
 * the planner prompt is the gold database's. Examples come from a warm plan cache: the earlier
 * questions of the same database with their gold SQL, chosen by similarity.
 */
// The package's main export is the o200k_base encoding (GPT-4o and later).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer';
import type { BenchArgs } from '../index';
import { introspectSqlite, sqliteValueSource } from '../support/sqlite-snapshot';
import { dot } from '../../src/engine/index/embedders/embedder';
import { LocalEmbedder } from '../../src/engine/index/embedders/local-embedder';
import { IndexService } from '../../src/engine/index/index-service';
import { DuckDbIndexStore } from '../../src/engine/index/store/duckdb-index-store';
import { similarExamples } from '../../src/engine/run/nodes/planner-examples';
import { plannerSchemaText } from '../../src/engine/run/prompts/planner-schema';
import { routingCandidates } from '../../src/engine/run/nodes/routing';
import { loadSpider } from '../support/spider';
import type { SchemaSnapshot } from '../../src/engine/datasources/schema';
import { mayHaveSeveralIntents } from '../../src/engine/run/nodes/intents';
import { ANSWER_SYSTEM, describeResults } from '../../src/engine/run/prompts/answer';
import { decompositionSchema, decomposerPrompt } from '../../src/engine/run/prompts/decomposer';
import {
  PLANNER_OUTPUT_SCHEMA,
  plannerPlanSystem,
  plannerUserMessage,
} from '../../src/engine/run/prompts/planner-plan';
import {
  plannerSqlSystem,
  plannerSqlUserMessage,
  SQL_DRAFT_SCHEMA,
} from '../../src/engine/run/prompts/planner-sql-draft';
import { renderSchema } from '../../src/engine/run/prompts/schema-text';
import { newSubQuery } from '../../src/engine/run/run-state';
import { importSql } from '../../src/engine/plan';

/** Rows of a result the answer step is shown (settings.pipeline.sample_rows' default). */
const SAMPLE_ROWS = 20;

export interface PromptFigures {
  suite: 'prompts';
  format: 'sql' | 'plan';
  questions: number;
  planner_input_tokens: { p50: number; p95: number };
  input_tokens_per_question: { p50: number; p95: number };
  calls_per_question: { p50: number; max: number };
  schema_recall: number;
  value_recall: number;
  value_recall_baseline: number;
  /** The same in the schema text alone (the question's own words left out), ours and the baseline. */
  value_recall_schema_only: { ours: number; baseline: number };
  /** Mean examples per planner prompt (similar earlier questions of the same database). */
  example_count: number;
  /** Routing by the index among all databases of DIR: the gold database ranked first. */
  routing_top1: number;
  /** Questions whose routing left one candidate (no decomposer), and how often that one was right. */
  single_candidate: { share: number; correct: number };
  value_lookup_ms: { p50: number; p95: number };
  index_build_seconds: number;
  values_indexed: number;
}

const tokens = (text: string) => encode(text).length;

export async function run(args: BenchArgs): Promise<object> {
  if (!args.data) throw new Error('prompts needs --data DIR (a dataset in Spider layout)');
  const o = args.options;
  const format = o.format === 'plan' ? 'plan' : 'sql';
  const limit = typeof o.limit === 'string' ? Number(o.limit) : Infinity;
  const figures = await measurePrompts(args.data, format, limit, o['show-misses'] !== undefined);
  console.log(JSON.stringify(figures, null, 2));
  return figures;
}

export async function measurePrompts(
  dir: string,
  format: 'sql' | 'plan',
  limit = Infinity,
  showMisses = false,
): Promise<PromptFigures> {
  const data = loadSpider(dir);
  // Today's introspection: the first 3 sorted values of each column (the baseline's samples).
  const snapshots = new Map(
    data.databases.map((db) => [db, introspectSqlite(data.sqlitePath(db), db, { samples: 3 })] as const),
  );
  const work = mkdtempSync(join(tmpdir(), 'bench-prompts-'));
  const embedder = new LocalEmbedder();
  const index = new IndexService({ store: new DuckDbIndexStore(join(work, 'index.duckdb')), embedder });
  try {
    await index.open();
    const sources = data.databases.map((db) => sqliteValueSource(data.sqlitePath(db)));
    const started = performance.now();
    const built = await index.indexAll(
      data.databases.map((db, i) => ({ datasourceId: db, snapshot: snapshots.get(db)!, values: sources[i] })),
    );
    const buildSeconds = (performance.now() - started) / 1000;
    for (const s of sources) s.close();
    if (built.errors.length) throw new Error(`index build failed: ${JSON.stringify(built.errors)}`);
    const similarities = async (q: string, texts: readonly string[]) => {
      const [qv, ...vs] = await embedder.embed([q, ...texts]);
      return vs.map((v) => Math.max(0, dot(qv!, v)));
    };

    const known = new Set(data.databases);
    const planner: number[] = [];
    const perQuestion: number[] = [];
    const calls: number[] = [];
    const lookupMs: number[] = [];
    const seen = new Map<string, { question: string; sql: string }[]>();
    const recall = {
      schema: [0, 0],
      values: [0, 0],
      baseline: [0, 0],
      schemaValues: [0, 0],
      schemaBaseline: [0, 0],
    };
    let examples = 0;
    let top1 = 0;
    let single = 0;
    let singleRight = 0;
    for (const q of data.questions.filter((x) => known.has(x.dbId)).slice(0, limit)) {
      const snap = snapshots.get(q.dbId)!;
      const ranked = await index.rankDatasources(q.question);
      if (ranked[0]?.datasourceId === q.dbId) top1++;
      const candidates = routingCandidates(ranked);
      if (candidates.length === 1) {
        single++;
        if (candidates[0] === q.dbId) singleRight++;
      }

      const t0 = performance.now();
      index.lookupValues(q.question, { datasourceIds: [q.dbId] });
      lookupMs.push(performance.now() - t0);
      const schemaText = await plannerSchemaText({
        question: q.question,
        datasourceId: q.dbId,
        snapshot: snap,
        index,
        policies: null,
        roles: [],
      });
      // A warm plan cache: the earlier questions of the same database and their SQL.
      const earlier = seen.get(q.dbId) ?? [];
      const chosen = await similarExamples(
        q.question,
        earlier.map((e) => ({ question: e.question, sql: e.sql, plan: null as never })),
        similarities,
      );
      seen.set(q.dbId, [{ question: q.question, sql: q.query }, ...earlier]);
      examples += chosen.length;
      const shown = chosen.map((e) => ({ question: e.question, sql: e.sql ?? '' }));

      const system = plannerSystem(format, snap.dialect, schemaText);
      const user = plannerUser(format, q.question, shown);
      const toolSchema = JSON.stringify(format === 'sql' ? SQL_DRAFT_SCHEMA : PLANNER_OUTPUT_SCHEMA);
      const plannerTokens = tokens(system) + tokens(user) + tokens(toolSchema);
      planner.push(plannerTokens);

      let total = plannerTokens;
      let n = 2; // the planner and the answer
      if (candidates.length > 1 || mayHaveSeveralIntents(q.question)) {
        const described = candidates
          .slice(0, 3)
          .map((id) => `- ${id}: (no description)`)
          .join('\n');
        const d = decomposerPrompt(q.question, described, 4);
        total +=
          tokens(d.system) +
          tokens(d.user) +
          tokens(JSON.stringify(decompositionSchema(candidates.slice(0, 3))));
        n++;
      }
      const gold = data.gold.get(q.idx);
      if (gold) {
        const sq = newSubQuery('sq1', q.question, q.dbId);
        sq.status = 'success';
        sq.sql = q.query;
        sq.rowCount = gold.rows.length;
        sq.rows = {
          columns: [...gold.columns],
          rows: gold.rows.slice(0, SAMPLE_ROWS).map((r) => [...r]),
          total_rows: gold.rows.length,
        };
        total += tokens(ANSWER_SYSTEM) + tokens(describeResults(q.question, [sq], true));
      }
      perQuestion.push(total);
      calls.push(n);

      // Recall is measured without the examples: an example's SQL may quote the very value.
      const prompt = `${system}\n${plannerUser(format, q.question, [])}`;
      const baselineSchema = renderSchema(snap, { datasourceId: q.dbId, policies: null, roles: [] });
      const baseline = `${plannerSystem(format, snap.dialect, baselineSchema)}\n${plannerUser(format, q.question, [])}`;
      const used = goldReferences(q.query, snap);
      if (used) {
        for (const t of used.tables)
          count(recall.schema, new RegExp(`^CREATE TABLE ${escape(t)}\\b`, 'mi').test(prompt));
        for (const c of used.columns)
          count(recall.schema, new RegExp(`^\\s+${escape(c)}\\s`, 'mi').test(prompt));
        for (const v of used.values) {
          count(recall.values, mentions(prompt, v));
          if (showMisses && !mentions(prompt, v))
            console.error(`value not in prompt (${q.dbId}): ${JSON.stringify(v)} <- ${q.question}`);
          count(recall.baseline, mentions(baseline, v));
          // The schema text alone: what the value method adds beyond the question's own spelling.
          count(recall.schemaValues, mentions(schemaText, v));
          count(recall.schemaBaseline, mentions(baselineSchema, v));
        }
      }
    }
    const ratio = ([a, b]: number[]) => (b ? Math.round((a! / b) * 1000) / 1000 : 1);
    const qn = planner.length;
    return {
      suite: 'prompts',
      format,
      questions: qn,
      planner_input_tokens: { p50: pct(planner, 50), p95: pct(planner, 95) },
      input_tokens_per_question: { p50: pct(perQuestion, 50), p95: pct(perQuestion, 95) },
      calls_per_question: { p50: pct(calls, 50), max: Math.max(...calls) },
      schema_recall: ratio(recall.schema),
      value_recall: ratio(recall.values),
      value_recall_baseline: ratio(recall.baseline),
      value_recall_schema_only: { ours: ratio(recall.schemaValues), baseline: ratio(recall.schemaBaseline) },
      example_count: qn ? Math.round((examples / qn) * 100) / 100 : 0,
      routing_top1: qn ? Math.round((top1 / qn) * 1000) / 1000 : 0,
      single_candidate: {
        share: qn ? Math.round((single / qn) * 1000) / 1000 : 0,
        correct: single ? Math.round((singleRight / single) * 1000) / 1000 : 1,
      },
      value_lookup_ms: { p50: round2(pct(lookupMs, 50)), p95: round2(pct(lookupMs, 95)) },
      index_build_seconds: Math.round(buildSeconds * 100) / 100,
      values_indexed: built.stats.reduce((a, s) => a + s.values, 0),
    };
  } finally {
    await index.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function plannerSystem(format: 'sql' | 'plan', dialect: string, schemaText: string): string {
  return format === 'sql' ? plannerSqlSystem(dialect, schemaText) : plannerPlanSystem(schemaText);
}

function plannerUser(
  format: 'sql' | 'plan',
  question: string,
  examples: readonly { question: string; sql: string }[],
): string {
  return format === 'sql'
    ? plannerSqlUserMessage({ question, examples, previous: null }, null)
    : plannerUserMessage({ schemaText: null, question, examples, previous: null });
}

/** A text literal is in the prompt as written, or as SQL spells it ('O''Brien'). */
function mentions(prompt: string, value: string): boolean {
  return prompt.includes(value) || prompt.includes(`'${value.replace(/'/g, "''")}'`);
}

function count(pair: number[], hit: boolean): void {
  pair[1]!++;
  if (hit) pair[0]!++;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Tables, columns and text literals (no LIKE patterns) of a gold query, from its imported plan. */
function goldReferences(
  sql: string,
  snapshot: SchemaSnapshot,
): { tables: Set<string>; columns: Set<string>; values: Set<string> } | null {
  let plan: unknown;
  try {
    plan = importSql(sql, 'sqlite', snapshot);
  } catch {
    return null;
  }
  const tables = new Set<string>();
  const columns = new Set<string>();
  const values = new Set<string>();
  const visit = (node: unknown, inLike = false): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, inLike));
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.kind === 'table' && typeof n.name === 'string') tables.add(n.name);
    if (n.kind === 'column' && typeof n.name === 'string') columns.add(n.name);
    if (n.kind === 'literal' && typeof n.value === 'string' && !inLike && n.value.trim()) values.add(n.value);
    for (const [k, v] of Object.entries(n)) visit(v, inLike || (n.kind === 'like' && k === 'pattern'));
  };
  visit(plan);
  return { tables, columns, values };
}

function pct(xs: readonly number[], p: number): number {
  if (!xs.length) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

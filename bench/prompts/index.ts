/**
 * `npm run bench -- prompts --data DIR [--format sql|plan] [--limit N] [--json OUT]`
 *
 * Renders, without calling a model, the prompts every question of a Spider-layout folder would get
 * through the service's own prompt functions, and counts them with a real tokenizer (o200k):
 * input tokens per step (planner: system, question and its tool schema; answer: the gold result
 * as the answer step would see it; decomposer only when the service would ask it), model calls
 * per question, schema_recall (gold tables and columns in the planner's prompt) and value_recall
 * (text literals of the gold SQL, spelt as in it, in the planner's prompt; LIKE patterns and
 * numbers left out). Routing is taken as the schema index's (no model call), as it is once the
 * index is built.
 */
// The package's main export is the o200k_base encoding (GPT-4o and later).
import { encode } from 'gpt-tokenizer';
import type { BenchArgs } from '../index';
import { introspectSqlite } from '../support/sqlite-snapshot';
import { loadSpider } from '../support/spider';
import type { SchemaSnapshot } from '../../src/engine/datasources/schema';
import { mayHaveSeveralIntents } from '../../src/engine/pipeline/intents';
import { ANSWER_SYSTEM, describeResults } from '../../src/engine/pipeline/nodes/answer-synthesizer';
import { decompositionSchema, decomposerPrompt } from '../../src/engine/pipeline/nodes/decomposer';
import {
  PLANNER_OUTPUT_SCHEMA,
  PLANNER_SYSTEM,
  plannerUserMessage,
} from '../../src/engine/pipeline/prompts/planner-prompt';
import {
  plannerSqlSystem,
  plannerSqlUserMessage,
  SQL_DRAFT_SCHEMA,
} from '../../src/engine/pipeline/prompts/planner-sql';
import { renderSchema } from '../../src/engine/pipeline/prompts/schema-prompt';
import { newSubQuery } from '../../src/engine/pipeline/run-state';
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
  example_count: number;
}

const tokens = (text: string) => encode(text).length;

export async function run(args: BenchArgs): Promise<object> {
  if (!args.data) throw new Error('prompts needs --data DIR (a dataset in Spider layout)');
  const o = args.options;
  const format = o.format === 'plan' ? 'plan' : 'sql';
  const limit = typeof o.limit === 'string' ? Number(o.limit) : Infinity;
  const figures = measurePrompts(args.data, format, limit);
  console.log(JSON.stringify(figures, null, 2));
  return figures;
}

export function measurePrompts(dir: string, format: 'sql' | 'plan', limit = Infinity): PromptFigures {
  const data = loadSpider(dir);
  const snapshots = new Map<string, SchemaSnapshot>();
  const snapshot = (db: string) => {
    let s = snapshots.get(db);
    if (!s) snapshots.set(db, (s = introspectSqlite(data.sqlitePath(db), db, { samples: 3 })));
    return s;
  };
  const known = new Set(data.databases);
  const planner: number[] = [];
  const perQuestion: number[] = [];
  const calls: number[] = [];
  let schemaFound = 0;
  let schemaTotal = 0;
  let valuesFound = 0;
  let valuesTotal = 0;
  for (const q of data.questions.filter((x) => known.has(x.dbId)).slice(0, limit)) {
    const snap = snapshot(q.dbId);
    const schemaText = renderSchema(snap, { datasourceId: q.dbId, policies: null, roles: [] });
    const system =
      format === 'sql'
        ? plannerSqlSystem(snap.dialect, schemaText)
        : `${PLANNER_SYSTEM}\n\nSchema:\n${schemaText}`;
    const user =
      format === 'sql'
        ? plannerSqlUserMessage({ question: q.question, examples: [], previous: null }, null)
        : plannerUserMessage({ schemaText: null, question: q.question, examples: [], previous: null });
    const toolSchema = JSON.stringify(format === 'sql' ? SQL_DRAFT_SCHEMA : PLANNER_OUTPUT_SCHEMA);
    const plannerTokens = tokens(system) + tokens(user) + tokens(toolSchema);
    planner.push(plannerTokens);

    let total = plannerTokens;
    let n = 2; // the planner and the answer
    if (mayHaveSeveralIntents(q.question)) {
      const d = decomposerPrompt(q.question, `- ${q.dbId}: (no description)`, 4);
      total += tokens(d.system) + tokens(d.user) + tokens(JSON.stringify(decompositionSchema([q.dbId])));
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

    const prompt = `${system}\n${user}`;
    const used = goldReferences(q.query, snap);
    if (used) {
      for (const t of used.tables) {
        schemaTotal++;
        if (new RegExp(`^TABLE ${escape(t)}\\b`, 'mi').test(prompt)) schemaFound++;
      }
      for (const c of used.columns) {
        schemaTotal++;
        if (new RegExp(`^\\s+${escape(c)}\\s`, 'mi').test(prompt)) schemaFound++;
      }
      for (const v of used.values) {
        valuesTotal++;
        if (prompt.includes(v)) valuesFound++;
      }
    }
  }
  const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 1000) / 1000 : 1);
  const valueRecall = ratio(valuesFound, valuesTotal);
  return {
    suite: 'prompts',
    format,
    questions: planner.length,
    planner_input_tokens: { p50: pct(planner, 50), p95: pct(planner, 95) },
    input_tokens_per_question: { p50: pct(perQuestion, 50), p95: pct(perQuestion, 95) },
    calls_per_question: { p50: pct(calls, 50), max: Math.max(...calls) },
    schema_recall: ratio(schemaFound, schemaTotal),
    value_recall: valueRecall,
    // The prompt still shows the first 3 sorted samples of each column: today's method is the baseline.
    value_recall_baseline: valueRecall,
    example_count: 0,
  };
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

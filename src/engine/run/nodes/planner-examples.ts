/**
 * The planner's examples: the k known question->SQL pairs most like the question, from the
 * datasource's verified queries and its recent successful runs (the plan cache). Chosen by the
 * index embedder's similarity, not by configuration order; none when nothing is close enough,
 * because an unrelated example costs tokens and pulls the model towards the wrong tables.
 */
import type { SchemaSnapshot } from '../../datasources/schema';
import type { SchemaIndex } from '../../index';
import { compilePlan } from '../../plan';
import type { Query } from '../../plan/types';
import type { VerifiedQueries } from '../../verified/verified-queries';
import { normaliseIntent, type PlanCache } from '../plan-cache';
import type { PromptExample } from '../prompts/planner-plan';

export interface ExampleCandidate {
  readonly question: string;
  readonly plan: Query;
  /** SQL in the datasource's dialect: a verified query's own text; null for a cached plan (compiled once chosen). */
  readonly sql: string | null;
}

export interface PlannerExample extends ExampleCandidate {
  readonly similarity: number;
}

/** Examples shown at most. */
export const EXAMPLES_K = 3;
/** Cosine similarity (index embedder) below which a pair is not an example of the question. */
export const EXAMPLE_MIN_SIMILARITY = 0.45;
/** Recent cached runs weighed as examples per question. */
const CACHED_CANDIDATES = 64;

export type Similarities = (question: string, texts: readonly string[]) => Promise<number[] | null>;

export async function similarExamples(
  question: string,
  candidates: readonly ExampleCandidate[],
  similarities: Similarities,
  k = EXAMPLES_K,
): Promise<PlannerExample[]> {
  const unique = dedupe(candidates);
  if (!unique.length) return [];
  const scores = await similarities(
    question,
    unique.map((c) => c.question),
  );
  if (!scores) return [];
  return unique
    .map((c, i) => ({ ...c, similarity: scores[i] ?? 0 }))
    .filter((c) => c.similarity >= EXAMPLE_MIN_SIMILARITY)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, k);
}

/** One example per question text (a verified query may also sit in the plan cache). */
function dedupe(candidates: readonly ExampleCandidate[]): ExampleCandidate[] {
  const seen = new Set<string>();
  const out: ExampleCandidate[] = [];
  for (const c of candidates) {
    const key = c.question.trim().toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/** Where the planner's examples come from, for the caller's role scope. */
export interface ExampleSources {
  readonly verified: Pick<VerifiedQueries, 'forDatasource'>;
  readonly planCache: PlanCache;
  readonly index: SchemaIndex;
  readonly roleScope: string;
  /** May the caller's roles read this plan? No example shows the model what its caller may not read. */
  readonly visible: (vq: { readonly datasource_id: string; readonly plan: Query }) => boolean;
}

/**
 * The examples of one sub-query's planner prompt: its datasource's verified queries and the cached
 * runs of the same schema version and role scope most like the intent, each with its SQL.
 */
export async function plannerExamples(
  sq: { readonly intent: string; readonly datasourceId: string },
  snapshot: SchemaSnapshot,
  sources: ExampleSources,
): Promise<PromptExample[]> {
  const intent = normaliseIntent(sq.intent);
  const candidates: ExampleCandidate[] = [
    ...sources.verified
      .forDatasource(sq.datasourceId)
      .filter(sources.visible)
      .map((v) => ({ question: v.question, plan: v.plan, sql: v.sql })),
    ...sources.planCache
      .pairs(
        {
          datasourceId: sq.datasourceId,
          schemaVersion: snapshot.schemaVersion,
          roleScope: sources.roleScope,
        },
        CACHED_CANDIDATES,
      )
      // The question's own cached plan is what is being retried: not an example of itself.
      .filter((p) => normaliseIntent(p.question) !== intent)
      .filter((p) => sources.visible({ datasource_id: sq.datasourceId, plan: p.plan }))
      .map((p) => ({ question: p.question, plan: p.plan, sql: null })),
  ];
  const chosen = await similarExamples(sq.intent, candidates, (q, texts) =>
    sources.index.similarities(q, texts),
  );
  const out: PromptExample[] = [];
  for (const e of chosen) {
    try {
      out.push({
        question: e.question,
        plan: e.plan,
        sql: e.sql ?? compilePlan(e.plan, snapshot.dialect, { schema: snapshot }).displaySql,
      });
    } catch {
      // A cached plan this dialect cannot print is simply not an example.
    }
  }
  return out;
}

/**
 * The planner's examples: the k known question->SQL pairs most like the question, from the
 * datasource's verified queries and its recent successful runs (the plan cache). Chosen by the
 * index embedder's similarity, not by configuration order; none when nothing is close enough,
 * because an unrelated example costs tokens and pulls the model towards the wrong tables.
 */
import type { Query } from '../../plan/types';

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

export type Similarities = (question: string, texts: readonly string[]) => Promise<number[] | null>;

export async function similarExamples(
  question: string,
  candidates: readonly ExampleCandidate[],
  similarities: Similarities,
  k = EXAMPLES_K,
  minSimilarity = EXAMPLE_MIN_SIMILARITY,
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
    .filter((c) => c.similarity >= minSimilarity)
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

/**
 * Verified-query suggestions, built in code (no model): candidates are the plans of runs rated up,
 * the corrections sent with ratings, and the plans the plan cache served repeatedly. Each plan's
 * literals that its question names are lifted into typed `:parameters` (lift-literals.ts) and the
 * plan is written as SQL with placeholders (template-sql.ts); candidates with the same SQL on the
 * same datasource are one suggestion, their questions its question and paraphrases. A suggestion
 * carries its evidence (runs and their ratings, corrections, plan-cache hits), passes the check a
 * configured verified query passes, and is left out when a verified query with the same plan
 * exists or when runs rated down outweigh the evidence for it. An admin accepts one by POSTing its
 * `verified_query` to /api/v1/verified-queries.
 */
import { createHash } from 'node:crypto';
import type { VerifiedQueryConfig } from '../../../config/schema';
import type { SchemaSnapshot } from '../../datasources/schema';
import type { FeedbackRecord, Rating } from '../../feedback/feedback-record';
import type * as T from '../../plan/types';
import { checkVerifiedQuery } from '../check';
import { liftLiterals, type LiftedParam } from './lift-literals';
import { templateSql } from './template-sql';

/** A plan the cache served this many times or more is evidence on its own. */
export const MIN_CACHE_HITS = 2;

export interface SuggestionRun {
  readonly request_id: string;
  readonly question: string;
  readonly rating: Rating;
  /** The candidate is this run's correction, not the plan that ran. */
  readonly corrected: boolean;
  readonly rated_at: string;
}

export interface Suggestion {
  /** Stable while the suggested SQL stays the same. */
  readonly id: string;
  readonly datasource_id: string;
  /** Ready to POST to /api/v1/verified-queries (change the id or the wording first if you like). */
  readonly verified_query: VerifiedQueryConfig & {
    readonly paraphrases: string[];
    readonly params: Record<string, LiftedParam>;
  };
  readonly evidence: {
    readonly runs: SuggestionRun[];
    readonly ratings: { readonly up: number; readonly down: number };
    readonly corrections: number;
    readonly plan_cache: { readonly hits: number; readonly questions: string[] };
  };
}

/** A plan that answered a question, with what speaks for or against it. */
interface Candidate {
  readonly datasourceId: string;
  readonly question: string;
  readonly plan: T.Query;
  readonly run: SuggestionRun | null;
  readonly cacheHits: number;
}

export interface SuggestionSources {
  readonly feedback: readonly FeedbackRecord[];
  readonly served: readonly {
    readonly question: string;
    readonly datasourceId: string;
    readonly plan: T.Query;
    readonly hits: number;
  }[];
  readonly snapshotOf: (datasourceId: string) => SchemaSnapshot | null | undefined;
  /** Plans of the existing verified queries (enabled ones), per datasource. */
  readonly existing: readonly { readonly datasource_id: string; readonly plan: T.Query }[];
  readonly takenIds: ReadonlySet<string>;
}

export function buildSuggestions(sources: SuggestionSources): Suggestion[] {
  const groups = new Map<string, Group>();
  for (const candidate of candidates(sources)) {
    const snapshot = sources.snapshotOf(candidate.datasourceId);
    if (!snapshot) continue;
    const lifted = liftLiterals(candidate.plan, candidate.question, snapshot);
    const template = templateSql(lifted.plan, lifted.params, snapshot);
    if (!template) continue;
    const key = `${candidate.datasourceId}\u0000${template.sql}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, snapshot, sql: template.sql, plan: template.plan, params: lifted.params, members: [] };
      groups.set(key, group);
    }
    group.members.push({ candidate, question: lifted.question });
  }
  const existing = new Set(sources.existing.map((v) => `${v.datasource_id}\u0000${canonical(v.plan)}`));
  const taken = new Set(sources.takenIds);
  const out: { suggestion: Suggestion; weight: number }[] = [];
  for (const group of groups.values()) {
    const datasourceId = group.snapshot.datasourceId;
    if (existing.has(`${datasourceId}\u0000${canonical(group.plan)}`)) continue;
    const evidence = evidenceOf(group);
    const weight =
      evidence.ratings.up + evidence.corrections + (evidence.plan_cache.hits >= MIN_CACHE_HITS ? 1 : 0);
    if (weight <= evidence.ratings.down) continue;
    const questions = questionsOf(group);
    const id = suggestedId(questions[0]!, group.key, taken);
    const verified = {
      id,
      datasource_id: datasourceId,
      question: questions[0]!,
      paraphrases: questions.slice(1),
      sql: group.sql,
      params: group.params,
    };
    if (checkVerifiedQuery(verified, group.snapshot, 'suggestion').problems.length) continue;
    taken.add(id);
    out.push({
      suggestion: {
        id: `s${hash(group.key).slice(0, 15)}`,
        datasource_id: datasourceId,
        verified_query: verified,
        evidence,
      },
      weight,
    });
  }
  return out.sort((a, b) => b.weight - a.weight).map((o) => o.suggestion);
}

interface Group {
  readonly key: string;
  readonly snapshot: SchemaSnapshot;
  readonly sql: string;
  readonly plan: T.Query;
  readonly params: Record<string, LiftedParam>;
  readonly members: { readonly candidate: Candidate; readonly question: string }[];
}

/**
 * The candidates of every source. A run counts once, with its latest rating; a correction is a
 * candidate of its own whatever the rating that carried it.
 */
function candidates(sources: SuggestionSources): Candidate[] {
  const latest = new Map<string, FeedbackRecord>();
  for (const r of sources.feedback) {
    const seen = latest.get(r.request_id);
    if (!seen || r.created_at > seen.created_at) latest.set(r.request_id, r);
  }
  const out: Candidate[] = [];
  // Oldest first: the first wording a plan was rated on leads its suggestion.
  const byAge = (a: FeedbackRecord, b: FeedbackRecord) => a.created_at.localeCompare(b.created_at);
  for (const r of [...latest.values()].sort(byAge)) {
    const single = r.run.sub_queries.length === 1;
    for (const sq of r.run.sub_queries) {
      // A verified query's run shows no plan: it is verified already.
      if (!sq.plan || !sq.datasource_id || sq.status !== 'success' || sq.plan_source === 'verified') continue;
      out.push({
        datasourceId: sq.datasource_id,
        question: single ? r.run.question : sq.intent || r.run.question,
        plan: sq.plan,
        run: runOf(r, false),
        cacheHits: 0,
      });
    }
  }
  for (const r of [...sources.feedback].sort(byAge)) {
    if (!r.corrected_plan || !r.corrected_datasource_id) continue;
    out.push({
      datasourceId: r.corrected_datasource_id,
      question: r.run.question,
      plan: r.corrected_plan,
      run: runOf(r, true),
      cacheHits: 0,
    });
  }
  for (const s of sources.served)
    out.push({
      datasourceId: s.datasourceId,
      question: s.question,
      plan: s.plan,
      run: null,
      cacheHits: s.hits,
    });
  return out;
}

function runOf(r: FeedbackRecord, corrected: boolean): SuggestionRun {
  return {
    request_id: r.request_id,
    question: r.run.question,
    rating: r.rating,
    corrected,
    rated_at: r.created_at,
  };
}

function evidenceOf(group: Group): Suggestion['evidence'] {
  const runs = group.members.flatMap((m) => (m.candidate.run ? [m.candidate.run] : []));
  const plain = runs.filter((r) => !r.corrected);
  const cached = group.members.filter((m) => m.candidate.cacheHits > 0);
  return {
    runs,
    ratings: {
      up: plain.filter((r) => r.rating === 'up').length,
      down: plain.filter((r) => r.rating === 'down').length,
    },
    corrections: runs.filter((r) => r.corrected).length,
    plan_cache: {
      hits: cached.reduce((n, m) => n + m.candidate.cacheHits, 0),
      questions: unique(cached.map((m) => m.candidate.question)),
    },
  };
}

/**
 * The group's questions as templates, the best attested first: corrections and runs rated up
 * before the plan cache's, each once (case and spacing aside). A question rated down is not a
 * wording to match.
 */
function questionsOf(group: Group): string[] {
  const rank = (c: Candidate) => (c.run?.corrected ? 0 : c.run?.rating === 'up' ? 1 : c.run ? 3 : 2);
  const ordered = [...group.members]
    .filter((m) => !(m.candidate.run && !m.candidate.run.corrected && m.candidate.run.rating === 'down'))
    .sort((a, b) => rank(a.candidate) - rank(b.candidate));
  return unique(ordered.map((m) => m.question.trim()));
}

function unique(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  return texts.filter((t) => {
    const k = t
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .replace(/[\s?.!]+$/, '');
    if (!k || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A verified query id from the question's words, unique among the taken ones. */
function suggestedId(question: string, key: string, taken: ReadonlySet<string>): string {
  const words = question
    .toLowerCase()
    .replace(/:[a-z_]\w*/g, ' ')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !STOP.has(w))
    .slice(0, 5);
  const base = (words.join('_') || 'suggested').slice(0, 48);
  let id = `${base}_${hash(key).slice(0, 4)}`;
  for (let i = 2; taken.has(id); i++) id = `${base}_${hash(key).slice(0, 4)}_${i}`;
  return id;
}

const STOP = new Set([
  'the',
  'and',
  'for',
  'how',
  'what',
  'which',
  'who',
  'were',
  'was',
  'are',
  'from',
  'with',
]);

/** A plan with its parameters' names left out, so a query and its renamed copy compare equal. */
function canonical(plan: T.Query): string {
  return JSON.stringify(plan, (_k, v: unknown) =>
    v && typeof v === 'object' && (v as { kind?: unknown }).kind === 'param' ? { kind: 'param' } : v,
  );
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

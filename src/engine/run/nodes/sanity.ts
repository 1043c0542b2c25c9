/**
 * Checks of the answer against the data it came from. Each finding is a `sanity.flagged` event
 * and a RunWarning; none fails the run. They catch what a language model does wrong most often:
 * numbers or names that the result does not contain, an empty result explained by a filter value
 * that never occurs in its column, and a result cut at its row cap summarised as if whole.
 */
import type { SchemaSnapshot } from '../../datasources/schema';
import type { Query } from '../../plan/types';
import type { SubQueryState } from '../run-state';

export interface SanityFinding {
  readonly check: string;
  readonly message: string;
  readonly sub_query_id: string | null;
  readonly detail: Record<string, unknown> | null;
}

const NUMBER = /-?\d[\d,]*(?:\.\d+)?/g;

export function checkAnswer(
  summary: string,
  question: string,
  subQueries: readonly SubQueryState[],
): SanityFinding[] {
  const findings: SanityFinding[] = [];
  const executed = subQueries.filter((s) => s.rows);
  if (!executed.length) return findings;
  findings.push(...unknownNumbers(summary, question, executed));
  findings.push(...unknownNames(summary, question, executed));
  for (const sq of executed) {
    if (
      sq.truncated &&
      !/(truncat|at least|first \d|more than|row (cap|limit)|cut|partial|not all|only the first)/i.test(
        summary,
      )
    ) {
      findings.push({
        check: 'TRUNCATED_AS_WHOLE',
        message: `the answer reads as if it covered the whole result, but sub-query ${sq.id} was cut at ${sq.datasourceRowCap} rows`,
        sub_query_id: sq.id,
        detail: { row_cap: sq.datasourceRowCap },
      });
    }
    // The known values are the table's samples: under a row filter or a mask they include values
    // of rows or columns the caller may not see, so they are not quoted to it.
    const narrowed = sq.policiesApplied.some((p) => p.kind !== 'model_sees');
    if (sq.rowCount === 0 && sq.plan && sq.snapshot && !narrowed)
      findings.push(...unseenFilterValues(sq, sq.plan, sq.snapshot));
  }
  return findings;
}

function unknownNumbers(summary: string, question: string, sqs: readonly SubQueryState[]): SanityFinding[] {
  const known: number[] = [];
  for (const sq of sqs) {
    known.push(sq.rowCount ?? 0, sq.rows?.rows.length ?? 0);
    for (const row of sq.rows?.rows ?? [])
      for (const cell of row) {
        const n =
          typeof cell === 'number'
            ? cell
            : typeof cell === 'string' && /^-?\d+(\.\d+)?$/.test(cell.trim())
              ? Number(cell)
              : null;
        if (n !== null && Number.isFinite(n)) known.push(n);
        if (typeof cell === 'string')
          for (const m of cell.match(NUMBER) ?? []) known.push(Number(m.replace(/,/g, '')));
      }
  }
  for (const m of question.match(NUMBER) ?? []) known.push(Number(m.replace(/,/g, '')));
  const out: SanityFinding[] = [];
  for (const m of new Set(summary.match(NUMBER) ?? [])) {
    const n = Number(m.replace(/,/g, ''));
    if (!Number.isFinite(n)) continue;
    // Small counting words (one to ten as digits) and years in prose are too common to judge.
    if (Number.isInteger(n) && n >= 0 && n <= 10) continue;
    if (known.some((k) => closeEnough(k, n))) continue;
    out.push({
      check: 'NUMBER_NOT_IN_RESULT',
      message: `the answer says ${m}, which is not in the result rows`,
      sub_query_id: null,
      detail: { value: m },
    });
  }
  return out;
}

/** Equal, or equal once rounded to the precision the answer wrote (12.35 for 12.3456). */
function closeEnough(known: number, said: number): boolean {
  if (known === said) return true;
  const decimals = (String(said).split('.')[1] ?? '').length;
  const f = 10 ** decimals;
  if (Math.round(known * f) / f === said) return true;
  // Percentages and thousands separators: 0.25 said as 25, 1234567 said as 1.23 (million).
  return Math.abs(known - said) <= Math.abs(known) * 0.005;
}

function unknownNames(summary: string, question: string, sqs: readonly SubQueryState[]): SanityFinding[] {
  const textCells: string[] = [];
  for (const sq of sqs) {
    textCells.push(...(sq.rows?.columns ?? []));
    for (const row of sq.rows?.rows ?? [])
      for (const cell of row) if (typeof cell === 'string') textCells.push(cell);
  }
  const haystack = `${textCells.join('\u0000')}\u0000${question}`.toLowerCase();
  const out: SanityFinding[] = [];
  // Capitalised words that do not start a sentence: likely names (of people, places, products).
  const sentenceStarts = new Set(
    [...summary.matchAll(/(?:^|[.!?:]\s+)(\p{Lu}[\p{L}'-]*)/gu)].map((m) => m[1]),
  );
  for (const m of summary.matchAll(/\b(\p{Lu}[\p{Ll}'-]+(?:\s+\p{Lu}[\p{Ll}'-]+)*)/gu)) {
    const name = m[1] ?? '';
    if (sentenceStarts.has(name) || name.length < 3) continue;
    if (haystack.includes(name.toLowerCase())) continue;
    // Only judge when the result holds text values at all (a purely numeric result names nothing).
    if (!sqs.some((sq) => sq.rows?.rows.some((r) => r.some((c) => typeof c === 'string')))) continue;
    out.push({
      check: 'NAME_NOT_IN_RESULT',
      message: `the answer names "${name}", which is not in the result rows`,
      sub_query_id: null,
      detail: { value: name },
    });
  }
  return out;
}

function unseenFilterValues(sq: SubQueryState, plan: Query, snapshot: SchemaSnapshot): SanityFinding[] {
  const out: SanityFinding[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, any>;
    if (n.kind === 'compare' && n.op === '=') {
      const [col, lit] = n.left?.kind === 'column' ? [n.left, n.right] : [n.right, n.left];
      if (col?.kind === 'column' && lit?.kind === 'literal' && typeof lit.value === 'string') {
        const column = findColumn(snapshot, col.table, col.name);
        if (
          column &&
          column.sampleValues.length &&
          !column.sampleValues.some((v) => String(v).toLowerCase() === String(lit.value).toLowerCase())
        ) {
          out.push({
            check: 'FILTER_VALUE_UNSEEN',
            message: `the result is empty and '${lit.value}' is not among the known values of ${col.name} (e.g. ${column.sampleValues.slice(0, 3).join(', ')}); the value may be spelled differently`,
            sub_query_id: sq.id,
            detail: { column: col.name, value: lit.value, samples: column.sampleValues.slice(0, 5) },
          });
        }
      }
    }
    Object.values(n).forEach(visit);
  };
  visit(plan);
  return out;
}

function findColumn(snapshot: SchemaSnapshot, table: string | null, name: string) {
  const lower = name.toLowerCase();
  const tables = snapshot.tables.filter((t) => !table || t.name.toLowerCase() === table.toLowerCase());
  for (const t of tables.length ? tables : snapshot.tables) {
    const c = t.columns.find((x) => x.name.toLowerCase() === lower);
    if (c) return c;
  }
  return undefined;
}

/**
 * Parameter filling for a verified query's no-model path (direct-path.ts), deterministic and typed
 * by the parameter: numbers and dates are read from the question, a string is a value stored in the
 * column the parameter is compared with and named by the question. Anything ambiguous (two numbers
 * for one numeric parameter, no stored value named) leaves the decision to the model.
 */
import type { SchemaSnapshot } from '../datasources/schema';
import type { ValueIndex } from '../index';
import type { CheckedVerifiedQuery, ParamValue } from './verified-queries';

/** Stored values of `column` named by the question, spelt as stored. */
export type ValueLookup = (question: string, column: string) => Promise<readonly string[]>;

/** What stands in for a parameter's value when two questions are compared. */
const SLOT = 'somevalue';

/**
 * The question with the values a parameter takes replaced by one neutral word, so two questions
 * that differ only in those values compare as equal, and any other difference still counts.
 * Only the kinds of value the verified query has parameters for are replaced.
 */
export async function maskValues(
  text: string,
  vq: CheckedVerifiedQuery,
  lookup: ValueLookup,
): Promise<string> {
  const types = new Set(Object.values(vq.params ?? {}).map((p) => p.type));
  let out = text.replace(/:[A-Za-z_]\w*/g, SLOT);
  if (types.has('date')) out = out.replace(DATE, SLOT);
  if (types.has('integer') || types.has('number')) out = out.replace(NUMBER, SLOT);
  const columns = paramColumns(vq.plan);
  for (const [name, p] of Object.entries(vq.params ?? {})) {
    const column = columns.get(name);
    if (p.type !== 'string' || !column) continue;
    for (const value of await lookup(out, column)) out = replaceWord(out, value, SLOT);
  }
  return out;
}

function replaceWord(text: string, word: string, by: string): string {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu'), by);
}

/** Columns each parameter is compared with (`col = :p`, `:p = col`, `col IN (:p, ...)`, LIKE...). */
export function paramColumns(plan: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    const pairs: [unknown, unknown][] = [];
    if (n.kind === 'compare') pairs.push([n.left, n.right], [n.right, n.left]);
    if (n.kind === 'like') pairs.push([n.expr, n.pattern]);
    if (n.kind === 'in_list') for (const v of (n.values as unknown[]) ?? []) pairs.push([n.expr, v]);
    for (const [a, b] of pairs) {
      const colNode = a as { kind?: unknown; name?: unknown };
      const param = b as { kind?: unknown; name?: unknown };
      if (colNode?.kind === 'column' && param?.kind === 'param' && typeof param.name === 'string')
        out.set(param.name, String(colNode.name));
    }
    Object.values(n).forEach(visit);
  };
  visit(plan);
  return out;
}

const NUMBER = /(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

/**
 * The parameter values of `vq` read from `question`, or null when any parameter cannot be filled
 * unambiguously. Numbers that are part of a date do not count as numbers.
 */
export async function fillParams(
  vq: CheckedVerifiedQuery,
  question: string,
  lookup: ValueLookup,
): Promise<Record<string, ParamValue> | null> {
  const declared = Object.entries(vq.params ?? {});
  const out: Record<string, ParamValue> = {};
  if (!declared.length) return out;
  const dates = question.match(DATE) ?? [];
  const numbers = (question.replace(DATE, ' ').match(NUMBER) ?? []).map(Number);
  const byType = (t: string) => declared.filter(([, p]) => p.type === t);
  const numeric = [...byType('integer'), ...byType('number')];
  if (numeric.length) {
    if (numeric.length !== 1 || numbers.length !== 1) return null;
    const [name, p] = numeric[0]!;
    const value = numbers[0]!;
    if (p.type === 'integer' && !Number.isInteger(value)) return null;
    out[name] = value;
  }
  const dated = byType('date');
  if (dated.length) {
    if (dated.length !== 1 || dates.length !== 1) return null;
    out[dated[0]![0]] = dates[0]!;
  }
  if (byType('boolean').length) return null; // yes/no is rarely literal in a question: the model decides
  const columns = paramColumns(vq.plan);
  for (const [name] of byType('string')) {
    const column = columns.get(name);
    if (!column) return null;
    const found = [...new Set(await lookup(question, column))];
    if (found.length !== 1) return null;
    out[name] = found[0]!;
  }
  return out;
}

/**
 * A lookup over the values the schema snapshot sampled: a stored value the question names as a
 * whole word, case-insensitively. The value index, when built, knows far more values.
 */
export function snapshotLookup(snapshot: SchemaSnapshot | null): ValueLookup {
  return async (question, column) => {
    if (!snapshot) return [];
    const q = ` ${question.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
    const found: string[] = [];
    for (const t of snapshot.tables)
      for (const c of t.columns) {
        if (c.name.toLowerCase() !== column.toLowerCase()) continue;
        for (const v of c.sampleValues) {
          if (typeof v !== 'string' || !v.trim()) continue;
          const words = v
            .toLowerCase()
            .replace(/[^\p{L}\p{N}]+/gu, ' ')
            .trim();
          if (words && q.includes(` ${words} `)) found.push(v);
        }
      }
    return found;
  };
}

/**
 * A lookup over the value index: stored values of the column that the question names exactly
 * (case, accents and punctuation aside). Corrected and partial matches are left to the model: this
 * path calls none, so it takes no guess.
 */
export function valueIndexLookup(values: ValueIndex, datasourceId: string): ValueLookup {
  return async (question, column) =>
    values
      .lookup(question, { datasourceIds: [datasourceId], perColumn: 10 })
      .filter((m) => m.kind === 'exact' && m.column.toLowerCase() === column.toLowerCase())
      .map((m) => m.value);
}

/** Every value any of the lookups finds, once each. */
export function combinedLookup(...lookups: readonly ValueLookup[]): ValueLookup {
  return async (question, column) => [
    ...new Set((await Promise.all(lookups.map((l) => l(question, column)))).flat()),
  ];
}

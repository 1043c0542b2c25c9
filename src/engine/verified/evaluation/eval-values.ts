/**
 * The values `nl2sql eval` asks a verified query's questions with, and the questions themselves.
 * A parameter's value is its `example`, else one its description gives ("e.g. Germany", the first
 * of a range "2022 to 2024"), else a value stored in the column it is compared with (the schema's
 * sample values); a parameter with none of these leaves the query unevaluated, with the reason.
 * A question written as a template (`... in :year?`) gets the value where it names it; any other
 * gets the values after it, "(year: 2023)", so the model is told what the verified query runs with.
 */
import type { SchemaSnapshot } from '../../datasources/schema';
import { paramColumns } from '../param-filling';
import { valueProblem } from '../param-values';
import type { CheckedVerifiedQuery, ParamValue } from '../verified-queries';

export type EvalValues =
  | { readonly ok: true; readonly values: Record<string, ParamValue> }
  | { readonly ok: false; readonly reason: string };

export function evalValues(vq: CheckedVerifiedQuery, snapshot: SchemaSnapshot | null): EvalValues {
  const values: Record<string, ParamValue> = {};
  const missing: string[] = [];
  const columns = paramColumns(vq.plan);
  for (const [name, p] of Object.entries(vq.params ?? {})) {
    const candidates: unknown[] = [
      p.example,
      ...fromDescription(p.description ?? '', p.type),
      ...storedValues(columns.get(name), snapshot),
    ];
    const value = candidates.find((v) => v !== undefined && valueProblem(p.type, v) === null);
    if (value === undefined) missing.push(name);
    else values[name] = value as ParamValue;
  }
  if (missing.length)
    return {
      ok: false,
      reason: `no value to ask with for ${missing.map((n) => `:${n}`).join(', ')} (set params.<name>.example)`,
    };
  return { ok: true, values };
}

/** The question to ask: the template filled, or the values stated after it. */
export function askedQuestion(template: string, values: Record<string, ParamValue>): string {
  let text = template;
  const stated: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const pattern = new RegExp(`:${name}(?![\\w])`, 'g');
    if (pattern.test(text)) text = text.replace(pattern, String(value));
    else stated.push(`${name}: ${String(value)}`);
  }
  return stated.length ? `${text} (${stated.join('; ')})` : text;
}

function fromDescription(description: string, type: string): unknown[] {
  const out: unknown[] = [];
  const example = /\b(?:e\.g\.|for example|such as)\s*,?\s*([^,;()]+)/i.exec(description)?.[1];
  if (example) out.push(...typed(example.split(/\s+or\s+/i)[0]!.trim(), type));
  const range = /(-?\d+(?:\.\d+)?)\s*(?:to|-|–|and)\s*-?\d+(?:\.\d+)?/.exec(description)?.[1];
  if (range) out.push(...typed(range, type));
  return out;
}

function typed(text: string, type: string): unknown[] {
  const cleaned = text.replace(/^['"]|['".]$/g, '');
  if (type === 'integer' || type === 'number') return [Number(cleaned)];
  if (type === 'boolean') return [cleaned === 'true' ? true : cleaned === 'false' ? false : undefined];
  return [cleaned];
}

function storedValues(column: string | undefined, snapshot: SchemaSnapshot | null): unknown[] {
  if (!column || !snapshot) return [];
  return snapshot.tables.flatMap((t) =>
    t.columns.filter((c) => c.name.toLowerCase() === column.toLowerCase()).flatMap((c) => c.sampleValues),
  );
}

/**
 * Whether a short text is a SQL expression rather than words: a glossary entry may define a term
 * in words ("a customer with an order in the last 90 days") or as SQL (`AVG(orders.total_amount)`),
 * and the prompt shows the two differently. SQL is text that parses, as `SELECT <text>` in the
 * dialect, into one statement whose first column is a function call, an operator, a CASE, a
 * qualified column and the like. A bare word, two words (which SQL reads as a column and its
 * alias: "active customers") and a lone literal are words, not SQL.
 */
import { parse } from 'sql-parser-cst';
import type { Dialect } from '../../datasources/schema';

const PARSER_DIALECT: Record<Dialect, 'sqlite' | 'postgresql' | 'mysql'> = {
  sqlite: 'sqlite',
  postgres: 'postgresql',
  duckdb: 'postgresql',
  mysql: 'mysql',
};

/** Column shapes that plain words also parse into. */
const WORDS_SHAPES = new Set(['alias', 'identifier']);

export function isSqlExpression(text: string, dialect: Dialect): boolean {
  if (!text.trim() || text.includes(';')) return false;
  let cst: {
    statements: { type: string; clauses?: { type: string; columns?: { items?: { type: string }[] } }[] }[];
  };
  try {
    cst = parse(`SELECT ${text}`, { dialect: PARSER_DIALECT[dialect] }) as unknown as typeof cst;
  } catch {
    return false;
  }
  if (cst.statements.length !== 1) return false;
  const first = cst.statements[0]?.clauses?.[0]?.columns?.items?.[0];
  if (!first) return false;
  return !WORDS_SHAPES.has(first.type) && !first.type.endsWith('_literal');
}

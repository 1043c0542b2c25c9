/**
 * The schema as the planner sees it: compact DDL, one CREATE TABLE per table with types, primary
 * and foreign keys, and as comments the database's own comment on the table or column, the row
 * estimate, the stored values the question names (`matches:`) and a few typical values (`e.g.`).
 * Models read DDL best of the schema formats published systems compared, and it shows them SQL's
 * own spelling of each value. Tables and columns a role may not read keep their names (so the
 * model can explain a refusal) but show no comment, no values and no statistics. A masked column
 * says so and shows no value, and a table the role reads only some rows of (a row filter) shows
 * no value and no row estimate: both come from every row (policy/rbac.ts `valuesVisible`).
 */
import type { ColumnInfo, SchemaSnapshot, TableInfo } from '../../datasources/schema';
import type { MatchKind } from '../../index';
import { textShape } from '../../index';
import {
  canReadColumn,
  canReadTable,
  isMaskedFor,
  readsWholeTable,
  valuesVisible,
  type RolePolicies,
} from '../../policy/rbac';

export interface SchemaPromptOptions {
  readonly datasourceId: string;
  readonly policies: RolePolicies;
  readonly roles: readonly string[];
  /** Only these tables (retrieval on a large schema); all when null. */
  readonly tables?: ReadonlySet<string> | null;
  /** Only these columns per table (lower-cased `table.column`); all when null. */
  readonly columns?: ReadonlySet<string> | null;
  readonly preferredTables?: readonly string[];
  readonly samples?: number;
  /**
   * Per lower-cased `table.column`: stored values the question names and the column's most frequent
   * values (value index). A question's matches make its prompt its own, so it is not cached.
   */
  readonly values?: ReadonlyMap<string, ColumnValueHints> | null;
}

export interface ColumnValueHints {
  /** Values the question names, spelled as stored, best first. */
  readonly matched: readonly MatchedValue[];
  /** The column's most frequent values; the snapshot's samples when empty. */
  readonly typical?: readonly string[];
  /** Every stored value of the column is distinct (one example shows the format). */
  readonly unique?: boolean;
}

/** A stored value the question names, how (value index match kind), and through which of its words. */
export interface MatchedValue {
  readonly value: string;
  readonly kind: MatchKind;
  /** The question's words the match covers. */
  readonly phrase: string;
}

/**
 * Whole-schema prompts already rendered, per policies and snapshot (a new snapshot, after a
 * refresh, is a new key) and then per datasource, roles, preferred tables and sample count: a
 * small schema's prompt is the same text for every question of a role.
 */
const rendered = new WeakMap<object, WeakMap<SchemaSnapshot, Map<string, string>>>();
/** Stands for "no policies" as a WeakMap key. */
const NO_POLICIES = {};
const MAX_PER_SNAPSHOT = 64;

export function renderSchema(snapshot: SchemaSnapshot, opts: SchemaPromptOptions): string {
  if (opts.tables || opts.columns || opts.values) return renderUncached(snapshot, opts);
  const policies = opts.policies ?? NO_POLICIES;
  let bySnapshot = rendered.get(policies);
  if (!bySnapshot) rendered.set(policies, (bySnapshot = new WeakMap()));
  let texts = bySnapshot.get(snapshot);
  if (!texts) bySnapshot.set(snapshot, (texts = new Map()));
  const key = JSON.stringify([opts.datasourceId, opts.roles, opts.preferredTables ?? [], opts.samples ?? 3]);
  let text = texts.get(key);
  if (text === undefined) {
    text = renderUncached(snapshot, opts);
    if (texts.size >= MAX_PER_SNAPSHOT) texts.clear();
    texts.set(key, text);
  }
  return text;
}

function renderUncached(snapshot: SchemaSnapshot, opts: SchemaPromptOptions): string {
  const samples = opts.samples ?? 3;
  const blocks: string[] = [];
  for (const t of snapshot.tables) {
    if (opts.tables && !opts.tables.has(t.name.toLowerCase()) && !opts.tables.has(qualified(t))) continue;
    blocks.push(renderTable(t, opts, samples));
  }
  const preferred = opts.preferredTables?.length
    ? `\nPreferred tables when several fit: ${opts.preferredTables.join(', ')}.`
    : '';
  return `Dialect of the datasource: ${snapshot.dialect}.${preferred}\n\n${blocks.join('\n\n')}`;
}

function renderTable(t: TableInfo, opts: SchemaPromptOptions, samples: number): string {
  const readable = canReadTable(opts.policies, opts.roles, opts.datasourceId, t.name);
  const fkByColumn = new Map<string, string>();
  const compositeFks: string[] = [];
  for (const fk of t.foreignKeys) {
    if (fk.columns.length === 1) {
      fkByColumn.set(fk.columns[0]!.toLowerCase(), `${fk.refTable}(${fk.refColumns[0] ?? '?'})`);
    } else {
      compositeFks.push(
        `  FOREIGN KEY (${fk.columns.join(', ')}) REFERENCES ${fk.refTable}(${fk.refColumns.join(', ')})`,
      );
    }
  }
  const notes: string[] = [];
  // A table the caller reads only some rows of: how many rows it holds in all is not its to know.
  const whole = readable && readsWholeTable(opts.policies, opts.roles, opts.datasourceId, t.name);
  if (whole && t.rowCountEstimate !== null) notes.push(`~${t.rowCountEstimate} rows`);
  if (!readable) notes.push('[not readable by your role]');
  if (readable && t.comment) notes.push(commentText(t.comment, TABLE_COMMENT_CHARS));
  const lines: { text: string; comment: string }[] = [];
  const singlePk = t.primaryKey.length === 1 ? t.primaryKey[0] : null;
  for (const c of t.columns) {
    if (
      opts.columns &&
      !opts.columns.has(`${t.name}.${c.name}`.toLowerCase()) &&
      !opts.columns.has(`${qualified(t)}.${c.name.toLowerCase()}`) &&
      !t.primaryKey.includes(c.name) &&
      !fkByColumn.has(c.name.toLowerCase())
    ) {
      continue;
    }
    const parts = [`  ${c.name} ${c.type || c.kind}`];
    if (c.name === singlePk) parts.push('PRIMARY KEY');
    const ref = fkByColumn.get(c.name.toLowerCase());
    if (ref) parts.push(`REFERENCES ${ref}`);
    if (!c.nullable && c.name !== singlePk) parts.push('NOT NULL');
    const colReadable =
      readable && canReadColumn(opts.policies, opts.roles, opts.datasourceId, t.name, c.name);
    let comment = '';
    if (!colReadable && readable) comment = '[not readable by your role]';
    if (colReadable) {
      // A masked column, or a table the caller reads only some rows of: no stored value (they come
      // from every row, unmasked); the column's own comment still says what it holds.
      const shown = valuesVisible(opts.policies, opts.roles, opts.datasourceId, t.name, c.name);
      const values = !shown
        ? ''
        : valueComment(
            c,
            opts.values?.get(`${t.name}.${c.name}`.toLowerCase()),
            sampleBudget(
              c,
              samples,
              c.name === singlePk || t.primaryKey.includes(c.name) || ref !== undefined,
            ),
          );
      const masked = isMaskedFor(opts.policies, opts.roles, opts.datasourceId, t.name, c.name)
        ? MASKED_NOTE
        : '';
      comment = [masked, c.comment ? commentText(c.comment, COLUMN_COMMENT_CHARS) : '', values]
        .filter(Boolean)
        .join('; ');
    }
    lines.push({ text: parts.join(' '), comment });
  }
  if (t.primaryKey.length > 1)
    lines.push({ text: `  PRIMARY KEY (${t.primaryKey.join(', ')})`, comment: '' });
  for (const fk of compositeFks) lines.push({ text: fk, comment: '' });
  const body = lines.map((l, i) => {
    const comma = i < lines.length - 1 ? ',' : '';
    return l.comment ? `${l.text}${comma} -- ${l.comment}` : `${l.text}${comma}`;
  });
  const head = `CREATE TABLE ${t.name} (${notes.length ? ` -- ${notes.join('; ')}` : ''}`;
  return [head, ...body, ');'].join('\n');
}

/** A masked column used anywhere but a select item is refused, and a refusal is not retried: say so. */
const MASKED_NOTE = '[masked for your role: select it only; never filter, join, group or sort on it]';

/**
 * How many typical values a column shows. A question names text values, so a text column shows
 * `samples`; a number, date or flag shows one (its format); a numeric key none (ids say nothing);
 * a text column whose stored values are all distinct (e-mails, phone numbers) one. Matches are
 * never cut.
 */
function sampleBudget(c: ColumnInfo, samples: number, isKey: boolean): number {
  if (c.kind === 'text' || c.kind === 'other') return samples;
  return isKey ? 0 : Math.min(samples, 1);
}

/**
 * What a text column holds when its type hides it (numbers or dates as text), then the values the
 * question names (as stored, each with the kind of match), then a few typical ones; each spelled as
 * SQL writes it, with line breaks escaped and long typical values cut.
 */
function valueComment(c: ColumnInfo, hints: ColumnValueHints | undefined, samples: number): string {
  const matched = hints?.matched ?? [];
  const shape = hidesContent(c) ? textShape(c.sampleValues) : null;
  // The value index keeps no numbers or dates: for such a column the introspected samples show it.
  const source = hints?.typical?.length && !shape ? hints.typical : c.sampleValues;
  const typical = source.filter((v) => !matched.some((m) => m.value === v));
  const out: string[] = [];
  if (shape?.kind === 'number') out.push('numbers stored as text: cast to compare or sort');
  if (shape?.kind === 'date')
    out.push(
      shape.sortable
        ? 'dates stored as text'
        : 'dates stored as text, not in sortable form: parse to compare or sort',
    );
  if (matched.length) out.push(`matches: ${matched.map(describeMatch).join(', ')}`);
  const shown = hints?.unique ? Math.min(samples, 1) : samples;
  if (shown > 0 && typical.length)
    out.push(
      `e.g. ${typical
        .slice(0, shown)
        .map((v) => sqlLiteral(v, MAX_SAMPLE_CHARS))
        .join(', ')}`,
    );
  return out.join('; ');
}

/** A text column whose declared type does not say it holds numbers or dates (TEXT, VARCHAR; not DATETIME). */
function hidesContent(c: ColumnInfo): boolean {
  return (
    (c.kind === 'text' || c.kind === 'other') && !/date|time|year|int|num|dec|real|float|double/i.test(c.type)
  );
}

/** Longest typical value shown whole; longer ones are cut and end in an ellipsis after the quote. */
const MAX_SAMPLE_CHARS = 60;

const MATCH_LABEL: Record<MatchKind, string> = {
  exact: 'exact',
  joined: 'joined spelling of',
  corrected: 'corrected from',
  derived: 'derived from',
  partial: 'partial:',
};

/** `'France' (exact)`, `'NorthCarolina' (joined spelling of "north carolina")`. */
function describeMatch(m: MatchedValue): string {
  const how = m.kind === 'exact' ? MATCH_LABEL.exact : `${MATCH_LABEL[m.kind]} "${m.phrase}"`;
  return `${sqlLiteral(m.value)} (${how})`;
}

/** Longest database comment shown, in characters: a table's carries its rules, a column's a note. */
const TABLE_COMMENT_CHARS = 400;
const COLUMN_COMMENT_CHARS = 200;

/**
 * A database comment as one line of a `--` comment: line breaks and runs of white space become one
 * space (a new line would end the comment and leave the rest as DDL), `/*` and `*\/` are split so
 * the text cannot open or close a block comment, and a long comment is cut at a word with `…`.
 */
export function commentText(text: string, maxChars: number): string {
  const flat = text
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .replace(/\/\*/g, '/ *')
    .replace(/\*\//g, '* /')
    .trim();
  if (flat.length <= maxChars) return flat;
  const cut = flat.slice(0, maxChars - 1);
  const word = cut.lastIndexOf(' ');
  return `${(word > maxChars / 2 ? cut.slice(0, word) : cut).trimEnd()}…`;
}

/** `schema.table` as the index names it, lower-cased (retrieval's sets use it). */
function qualified(t: TableInfo): string {
  return (t.schema ? `${t.schema}.${t.name}` : t.name).toLowerCase();
}

/**
 * A value as a SQL literal on one line: quotes doubled, line breaks and other control characters
 * escaped (`'NJ\\n'`), so a stored newline cannot break the DDL's layout; cut past `max` characters.
 */
function sqlLiteral(v: string | number | boolean, max = Infinity): string {
  if (typeof v !== 'string') return String(v);
  const chars = [...v];
  const cut = chars.length > max;
  const text = (cut ? chars.slice(0, max).join('') : v)
    .replace(/'/g, "''")
    .replace(/[\p{Cc}\u2028\u2029]/gu, escapeControl);
  return cut ? `'${text}'…` : `'${text}'`;
}

const CONTROL_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControl(ch: string): string {
  return CONTROL_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Number of columns over which the planner gets retrieved tables instead of the whole schema. */
export const LARGE_SCHEMA_COLUMNS = 120;

export function isLargeSchema(snapshot: SchemaSnapshot): boolean {
  return snapshot.tables.reduce((n, t) => n + t.columns.length, 0) > LARGE_SCHEMA_COLUMNS;
}

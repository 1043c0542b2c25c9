/**
 * What a build writes: one entry per datasource, table, column, foreign key, sample question and
 * verified query, each with the text that is embedded and the facts the retriever needs (`meta`).
 * A table's or column's comment in the database is part of its text (it often says in words what
 * a terse name means) and of its meta (the retriever's lexical terms). Pure: a SchemaSnapshot plus the datasource's own description in, entries out; no model call.
 */
import type { SchemaSnapshot, TableInfo } from '../datasources/schema';
import { splitWords } from './text/tokens';

export const ENTRY_KINDS = [
  'schema.datasource',
  'schema.table',
  'schema.column',
  'schema.relationship',
  'sample_question',
  'verified_query',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export interface DatasourceMeta {
  readonly description?: string;
  readonly sampleQuestions?: readonly string[];
  readonly verifiedQueries?: readonly {
    readonly id: string;
    readonly question: string;
    readonly paraphrases?: readonly string[];
    readonly sql: string;
  }[];
}

export interface DatasourceEntryMeta {
  readonly description: string | null;
  readonly dialect: string;
  readonly schemaVersion: string;
}
export interface TableEntryMeta {
  readonly table: string;
  readonly primaryKey: readonly string[];
  readonly rowCountEstimate: number | null;
  readonly comment?: string;
}
export interface ColumnEntryMeta {
  readonly table: string;
  readonly column: string;
  readonly type: string;
  readonly kind: string;
  readonly primaryKey: boolean;
  readonly sampleValues: readonly (string | number | boolean)[];
  readonly comment?: string;
}
export interface RelationshipEntryMeta {
  readonly table: string;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
}
export interface QuestionEntryMeta {
  readonly question: string;
  readonly id?: string;
  readonly sql?: string;
}

export type EntryMeta =
  DatasourceEntryMeta | TableEntryMeta | ColumnEntryMeta | RelationshipEntryMeta | QuestionEntryMeta;

export interface EntryDraft {
  readonly kind: EntryKind;
  /** Unique within a datasource's build: table key, `table.column`, ... */
  readonly key: string;
  readonly text: string;
  readonly meta: EntryMeta;
}

/** `schema.name` when the database has namespaces, else the name. */
export function tableKey(t: Pick<TableInfo, 'schema' | 'name'>): string {
  return t.schema ? `${t.schema}.${t.name}` : t.name;
}

/** An identifier with its words spelled out, so `FlightNo` also reads as "flight no". */
function spelled(name: string): string {
  const words = splitWords(name).join(' ');
  return words && words !== name.toLowerCase() ? `${name} (${words})` : name;
}

/** Most characters of a comment that go into an entry's text (the embedder reads a sentence or two). */
const COMMENT_TEXT_CHARS = 400;

function commentPart(comment: string | undefined): string {
  return comment ? `; comment: ${comment.replace(/\s+/g, ' ').slice(0, COMMENT_TEXT_CHARS)}` : '';
}

function values(vs: readonly (string | number | boolean)[]): string {
  return vs.map((v) => String(v).slice(0, 80)).join(', ');
}

export function buildEntries(snapshot: SchemaSnapshot, meta: DatasourceMeta = {}): EntryDraft[] {
  const out: EntryDraft[] = [];
  const tableNames = snapshot.tables.map((t) => spelled(tableKey(t)));
  out.push({
    kind: 'schema.datasource',
    key: snapshot.datasourceId,
    text: [
      `datasource ${spelled(snapshot.datasourceId)}`,
      meta.description ?? '',
      `tables: ${tableNames.join(', ')}`,
    ]
      .filter(Boolean)
      .join('. '),
    meta: {
      description: meta.description ?? null,
      dialect: snapshot.dialect,
      schemaVersion: snapshot.schemaVersion,
    },
  });
  for (const t of snapshot.tables) {
    const tk = tableKey(t);
    out.push({
      kind: 'schema.table',
      key: tk,
      text: `table ${spelled(tk)}: columns ${t.columns.map((c) => spelled(c.name)).join(', ')}${commentPart(t.comment)}`,
      meta: {
        table: tk,
        primaryKey: t.primaryKey,
        rowCountEstimate: t.rowCountEstimate,
        ...(t.comment ? { comment: t.comment } : {}),
      },
    });
    for (const c of t.columns) {
      const sample = c.sampleValues.length ? `; values: ${values(c.sampleValues)}` : '';
      out.push({
        kind: 'schema.column',
        key: `${tk}.${c.name}`,
        text: `column ${spelled(c.name)} of table ${spelled(tk)}, ${c.kind}${commentPart(c.comment)}${sample}`,
        meta: {
          table: tk,
          column: c.name,
          type: c.type,
          kind: c.kind,
          primaryKey: t.primaryKey.includes(c.name),
          sampleValues: c.sampleValues,
          ...(c.comment ? { comment: c.comment } : {}),
        },
      });
    }
    t.foreignKeys.forEach((fk, i) => {
      const ref = snapshot.tables.find((x) => x.name === fk.refTable || tableKey(x) === fk.refTable);
      const refKey = ref ? tableKey(ref) : fk.refTable;
      out.push({
        kind: 'schema.relationship',
        key: `${tk}#${i}`,
        text: `${tk}.${fk.columns.join(',')} references ${refKey}.${fk.refColumns.join(',')}`,
        meta: { table: tk, columns: fk.columns, refTable: refKey, refColumns: fk.refColumns },
      });
    });
  }
  (meta.sampleQuestions ?? []).forEach((q, i) => {
    out.push({ kind: 'sample_question', key: `q${i}`, text: q, meta: { question: q } });
  });
  for (const vq of meta.verifiedQueries ?? []) {
    out.push({
      kind: 'verified_query',
      key: vq.id,
      text: [vq.question, ...(vq.paraphrases ?? [])].join(' / '),
      meta: { question: vq.question, id: vq.id, sql: vq.sql },
    });
  }
  return out;
}

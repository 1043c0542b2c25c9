/**
 * The retriever's in-memory view of the live entries: datasources, tables and columns with their
 * analysed terms, vectors, and postings (term -> where it occurs). Built once per load from the
 * store's entries (the DuckDB file stays the source of truth), so a query costs no round trip.
 */
import type {
  ColumnEntryMeta,
  DatasourceEntryMeta,
  QuestionEntryMeta,
  RelationshipEntryMeta,
  TableEntryMeta,
} from './entries';
import { SchemaGraph, type FkEdge } from './schema-graph';
import type { StoredEntry } from './store/index-store';
import { lexicon } from './text/lexicon';
import { splitWords, stem, STOPWORDS } from './text/tokens';

export interface DatasourceNode {
  readonly id: string;
  readonly index: number;
  vector: Float32Array | null;
  readonly tables: number[];
  readonly graph: SchemaGraph;
}
export interface TableNode {
  readonly index: number;
  readonly ds: number;
  readonly key: string;
  readonly nameTerms: readonly string[];
  readonly nameWords: NameWords;
  readonly vector: Float32Array;
  readonly columns: number[];
}
export interface ColumnNode {
  readonly index: number;
  readonly ds: number;
  readonly table: number;
  readonly name: string;
  readonly nameTerms: readonly string[];
  readonly nameWords: NameWords;
  readonly primaryKey: boolean;
  readonly vector: Float32Array;
  /** Also set for the referenced side of a foreign key. */
  foreignKey: boolean;
}

/**
 * The words of a name, each with the terms that stand for it, plus the joined form: how much of a
 * name a question covers is measured on these.
 */
export interface NameWords {
  readonly words: readonly (readonly string[])[];
  readonly joined: string | null;
}

export function nameWords(name: string): NameWords {
  const lex = lexicon();
  const words = splitWords(name);
  const kept = words.filter((w) => !(STOPWORDS.has(w) && words.length > 1));
  return {
    words: kept.map((w) => {
      const t = stem(w);
      const full = lex.expand(t);
      return full ? [t, full] : [t];
    }),
    joined: words.length > 1 && words.length <= 3 ? stem(words.join('')) : null,
  };
}

/** Where a term occurs; each list holds node indexes. */
export interface Postings {
  readonly tableName: Set<number>;
  readonly columnName: Set<number>;
  readonly columnValue: Set<number>;
  /** The database's comment on a table (table indexes) or a column (column indexes). */
  readonly tableComment: Set<number>;
  readonly columnComment: Set<number>;
  /** Datasource description, sample questions, verified queries. */
  readonly datasourceText: Set<number>;
}

/** Terms of an identifier, with abbreviations spelled out (`qty` gives `qty` and `quantity`). */
export function nameTerms(name: string): string[] {
  const lex = lexicon();
  const out = new Set<string>();
  const words = splitWords(name);
  for (const w of words) {
    if (STOPWORDS.has(w) && words.length > 1) continue;
    const t = stem(w);
    out.add(t);
    const full = lex.expand(t);
    if (full) out.add(full);
  }
  // An identifier written as one word is also findable by its parts joined ("home_town" -> hometown).
  if (words.length > 1 && words.length <= 3) out.add(stem(words.join('')));
  return [...out];
}

/** Terms of a text value: only words, numbers say little about which table a question means. */
export function valueTerms(value: string | number | boolean): string[] {
  if (typeof value !== 'string') return [];
  const out: string[] = [];
  for (const w of splitWords(value.slice(0, 200))) {
    if (STOPWORDS.has(w) || /^\d+$/.test(w) || w.length < 2) continue;
    out.push(stem(w));
  }
  return out;
}

export class SchemaModel {
  readonly datasources: DatasourceNode[] = [];
  readonly tables: TableNode[] = [];
  readonly columns: ColumnNode[] = [];
  readonly postings = new Map<string, Postings>();
  /** Document frequency over tables and columns (names and values), and over datasources. */
  readonly df = new Map<string, number>();
  readonly dfDatasource = new Map<string, number>();

  constructor(entries: readonly StoredEntry[]) {
    const dsIndex = new Map<string, number>();
    const tableIndex = new Map<string, number>();
    const edges = new Map<number, FkEdge[]>();
    const dsTerms = new Map<number, Set<string>>();
    const ds = (id: string): number => {
      let i = dsIndex.get(id);
      if (i === undefined) {
        i = this.datasources.length;
        dsIndex.set(id, i);
        edges.set(i, []);
        dsTerms.set(i, new Set());
        this.datasources.push({ id, index: i, vector: null, tables: [], graph: new SchemaGraph([]) });
      }
      return i;
    };
    const post = (term: string, field: keyof Postings, idx: number, d: number) => {
      let p = this.postings.get(term);
      if (!p) {
        p = {
          tableName: new Set(),
          columnName: new Set(),
          columnValue: new Set(),
          tableComment: new Set(),
          columnComment: new Set(),
          datasourceText: new Set(),
        };
        this.postings.set(term, p);
      }
      p[field].add(idx);
      dsTerms.get(d)?.add(term);
    };
    // Tables first, so that columns and relationships find their table whatever the entry order.
    for (const e of entries) {
      const d = ds(e.datasourceId);
      if (e.kind === 'schema.datasource') {
        const node = this.datasources[d];
        if (node) node.vector = e.vector;
        const m = e.meta as DatasourceEntryMeta;
        for (const t of textTerms(m.description ?? '')) post(t, 'datasourceText', d, d);
      } else if (e.kind === 'schema.table') {
        const m = e.meta as TableEntryMeta;
        const index = this.tables.length;
        const terms = nameTerms(m.table.includes('.') ? m.table.slice(m.table.indexOf('.') + 1) : m.table);
        const bare = m.table.includes('.') ? m.table.slice(m.table.indexOf('.') + 1) : m.table;
        this.tables.push({
          index,
          ds: d,
          key: m.table,
          nameTerms: terms,
          nameWords: nameWords(bare),
          vector: e.vector,
          columns: [],
        });
        tableIndex.set(`${d}\u0000${m.table}`, index);
        this.datasources[d]?.tables.push(index);
        for (const t of terms) post(t, 'tableName', index, d);
        for (const t of commentTerms(m.comment)) post(t, 'tableComment', index, d);
      }
    }
    for (const e of entries) {
      const d = ds(e.datasourceId);
      if (e.kind === 'schema.column') {
        const m = e.meta as ColumnEntryMeta;
        const table = tableIndex.get(`${d}\u0000${m.table}`);
        if (table === undefined) continue;
        const index = this.columns.length;
        const terms = nameTerms(m.column);
        this.columns.push({
          index,
          ds: d,
          table,
          name: m.column,
          nameTerms: terms,
          nameWords: nameWords(m.column),
          primaryKey: m.primaryKey,
          vector: e.vector,
          foreignKey: false,
        });
        this.tables[table]?.columns.push(index);
        for (const t of terms) post(t, 'columnName', index, d);
        for (const v of m.sampleValues) for (const t of valueTerms(v)) post(t, 'columnValue', index, d);
        for (const t of commentTerms(m.comment)) post(t, 'columnComment', index, d);
      } else if (e.kind === 'schema.relationship') {
        edges.get(d)?.push(e.meta as RelationshipEntryMeta);
      } else if (e.kind === 'sample_question' || e.kind === 'verified_query') {
        for (const t of textTerms((e.meta as QuestionEntryMeta).question)) post(t, 'datasourceText', d, d);
      }
    }
    for (const node of this.datasources) {
      const list = edges.get(node.index) ?? [];
      (node as { graph: SchemaGraph }).graph = new SchemaGraph(list);
      for (const fk of list) {
        this.markForeignKey(node.index, fk.table, fk.columns, tableIndex);
        this.markForeignKey(node.index, fk.refTable, fk.refColumns, tableIndex);
      }
    }
    for (const [term, p] of this.postings) {
      this.df.set(
        term,
        new Set([...p.tableName, ...p.tableComment]).size +
          new Set([...p.columnName, ...p.columnValue, ...p.columnComment]).size,
      );
    }
    for (const terms of dsTerms.values())
      for (const t of terms) this.dfDatasource.set(t, (this.dfDatasource.get(t) ?? 0) + 1);
  }

  private markForeignKey(
    d: number,
    table: string,
    columns: readonly string[],
    tableIndex: Map<string, number>,
  ): void {
    const t = tableIndex.get(`${d}\u0000${table}`);
    if (t === undefined) return;
    for (const ci of this.tables[t]?.columns ?? []) {
      const c = this.columns[ci];
      if (c && columns.some((name) => name.toLowerCase() === c.name.toLowerCase())) c.foreignKey = true;
    }
  }

  datasourceIndex(id: string): number | undefined {
    return this.datasources.find((d) => d.id === id)?.index;
  }
}

/** A comment's terms, each once (a comment is a sentence, not a list of names). */
function commentTerms(comment: string | undefined): string[] {
  return comment ? [...new Set(textTerms(comment.slice(0, 400)))] : [];
}

function textTerms(text: string): string[] {
  const out: string[] = [];
  for (const w of splitWords(text)) if (!STOPWORDS.has(w) && !/^\d+$/.test(w)) out.push(stem(w));
  return out;
}

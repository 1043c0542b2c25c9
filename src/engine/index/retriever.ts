/**
 * Routing and schema linking without a model. Each question is scored against the in-memory model
 * of the live entries with two signals: a lexical one (BM25-like: each question term counts once,
 * weighted by how rare its best match is, and by where it matched: a table's name counts more than
 * one of its values) and the embedder's vector similarity. Tables pass part of their score to their
 * columns; the foreign-key columns that join the chosen tables are raised, because the SQL needs
 * them even when the question never names them. Pooled linking (all datasources as one schema)
 * weighs each table by how well its datasource fits the whole question.
 */
import { dot, type Embedder } from './embedders/embedder';
import type { FkEdge } from './schema-graph';
import { SchemaModel, type NameWords } from './schema-model';
import { QueryAnalyser, type QueryTerm } from './query-terms';
import type { StoredEntry } from './store/index-store';
import { normaliseText } from './values/normalise';
import { ValueIndex, type ValueMatch } from './values/value-index';

/** Links across every datasource, as if they were one schema. */
export const POOLED = '*';

export interface RankedDatasource {
  readonly datasourceId: string;
  readonly score: number;
}
export interface LinkedTable {
  readonly datasourceId: string;
  readonly table: string;
  readonly score: number;
  /** True when the table was not ranked in the top k but lies on a join path between ranked ones. */
  readonly joinPath: boolean;
}
export interface LinkedColumn {
  readonly datasourceId: string;
  readonly table: string;
  readonly column: string;
  readonly score: number;
}
export interface LinkedRelationship extends FkEdge {
  readonly datasourceId: string;
}
export interface SchemaLink {
  readonly tables: LinkedTable[];
  readonly columns: LinkedColumn[];
  readonly relationships: LinkedRelationship[];
}
export interface LinkOptions extends EvidenceOptions {
  readonly tables?: number;
  readonly columns?: number;
}

/**
 * Which stored values may count as evidence: a caller's roles may not read every column, and a
 * value of a column it may not read must not steer its routing either. `scope` names the filter
 * (the role scope) so scores are cached per filter.
 */
export interface EvidenceOptions {
  readonly valueFilter?: { readonly scope: string; readonly accept: (m: ValueMatch) => boolean };
}

/** Weights of the scoring; one place so the method can be read and tuned as a whole. */
export const WEIGHTS = {
  table: { name: 1, columnName: 0.5, value: 0.4, comment: 0.6, columnComment: 0.3 },
  /** A comment's words say what a column holds, but less surely than its name. */
  column: { name: 1, value: 0.6, comment: 0.7 },
  datasource: { tableName: 1, columnName: 0.8, value: 0.7, text: 0.6, comment: 0.6 },
  /** Vector similarity, scaled to the lexical scores (which sum idf weights). */
  dense: 2,
  /** Share of a datasource's best table score added to the datasource's own. */
  bestTable: 0.5,
  /** Share of its table's score a column inherits. */
  tableToColumn: 0.5,
  /** Raise of a foreign-key column that joins two chosen tables, relative to the weaker table. */
  joinKey: 0.6,
  /** Raise of a table or column whose name the question covers (idf-weighted share of its words, squared). */
  coverage: { table: 3, column: 3 },
  /** Pooled: weight of the datasource's fit, relative to the best table score. */
  pooledDatasource: 1,
  /**
   * A stored value the question names (value index), times its match score and its rarity across
   * datasources: the column that holds it, its table and its datasource.
   */
  valueMatch: { column: 3, table: 1, datasource: 1.5 },
};

/** Value matches weaker than this are not evidence for routing (a partial match of one common word). */
const VALUE_EVIDENCE_MIN = 0.5;

interface Scores {
  readonly datasource: Float64Array;
  readonly table: Float64Array;
  readonly column: Float64Array;
}

export class Retriever {
  readonly model: SchemaModel;
  private readonly analyser: QueryAnalyser;
  private readonly idf: Map<string, number> = new Map();
  private readonly idfDatasource: Map<string, number> = new Map();

  /** `${ds}\0${table}\0${column}` -> column node. */
  private readonly columnByKey = new Map<string, number>();

  constructor(
    entries: readonly StoredEntry[],
    private readonly embedder: Embedder,
    private readonly values: ValueIndex = new ValueIndex([]),
  ) {
    this.model = new SchemaModel(entries);
    for (const c of this.model.columns) {
      const t = this.model.tables[c.table];
      const d = this.model.datasources[c.ds];
      if (t && d) this.columnByKey.set(`${d.id}\u0000${t.key}\u0000${c.name}`, c.index);
    }
    this.analyser = new QueryAnalyser(new Set(this.model.postings.keys()));
    const n = this.model.tables.length + this.model.columns.length;
    for (const [t, df] of this.model.df) this.idf.set(t, Math.log(1 + n / Math.max(1, df)));
    const nd = this.model.datasources.length;
    for (const [t, df] of this.model.dfDatasource)
      this.idfDatasource.set(t, Math.log(1 + nd / Math.max(1, df)));
  }

  get datasourceIds(): string[] {
    return this.model.datasources.map((d) => d.id);
  }

  async rankDatasources(question: string, options: EvidenceOptions = {}): Promise<RankedDatasource[]> {
    const s = await this.score(question, options);
    return this.model.datasources
      .map((d) => ({ datasourceId: d.id, score: round(s.datasource[d.index] ?? 0) }))
      .sort((a, b) => b.score - a.score || a.datasourceId.localeCompare(b.datasourceId));
  }

  /** Top tables and columns of one datasource (or POOLED), plus the tables and keys joining them. */
  async linkSchema(question: string, datasourceId: string, options: LinkOptions = {}): Promise<SchemaLink> {
    const k = { tables: options.tables ?? 5, columns: options.columns ?? 10 };
    const s = await this.score(question, options);
    const pooled = datasourceId === POOLED;
    const scope = pooled ? null : this.model.datasourceIndex(datasourceId);
    if (!pooled && scope === undefined) return { tables: [], columns: [], relationships: [] };
    const inScope = (ds: number) => pooled || ds === scope;

    const tableScore = Float64Array.from(s.table);
    if (pooled) {
      const maxDs = Math.max(1e-9, ...s.datasource);
      const maxTable = Math.max(1e-9, ...tableScore);
      for (const t of this.model.tables) {
        tableScore[t.index] =
          (tableScore[t.index] ?? 0) +
          WEIGHTS.pooledDatasource * maxTable * ((s.datasource[t.ds] ?? 0) / maxDs);
      }
    }
    const rankedTables = this.model.tables
      .filter((t) => inScope(t.ds))
      .sort((a, b) => (tableScore[b.index] ?? 0) - (tableScore[a.index] ?? 0) || a.key.localeCompare(b.key));
    const top = rankedTables.slice(0, k.tables);

    // Join paths are per datasource: a foreign key never crosses two of them.
    const chosen = new Map<number, string[]>();
    for (const t of top) chosen.set(t.ds, [...(chosen.get(t.ds) ?? []), t.key]);
    const joined = new Map<number, string[]>();
    const relationships: LinkedRelationship[] = [];
    for (const [ds, keys] of chosen) {
      const graph = this.model.datasources[ds]?.graph;
      if (!graph) continue;
      const all = graph.connect(keys);
      joined.set(ds, all);
      const id = this.model.datasources[ds]?.id ?? '';
      for (const e of graph.edgesWithin(all)) relationships.push({ ...e, datasourceId: id });
    }

    const columnScore = Float64Array.from(s.column);
    for (const c of this.model.columns) {
      if (!inScope(c.ds)) continue;
      columnScore[c.index] = (columnScore[c.index] ?? 0) + WEIGHTS.tableToColumn * (tableScore[c.table] ?? 0);
    }
    this.raiseJoinKeys(
      columnScore,
      tableScore,
      rankedTables.slice(0, 3).map((t) => t.index),
    );

    const columns = this.model.columns
      .filter((c) => inScope(c.ds))
      .sort((a, b) => (columnScore[b.index] ?? 0) - (columnScore[a.index] ?? 0) || a.index - b.index)
      .slice(0, k.columns)
      .map((c) => ({
        datasourceId: this.model.datasources[c.ds]?.id ?? '',
        table: this.model.tables[c.table]?.key ?? '',
        column: c.name,
        score: round(columnScore[c.index] ?? 0),
      }));
    const topKeys = new Set(top.map((t) => `${t.ds}\u0000${t.key}`));
    const tables: LinkedTable[] = top.map((t) => ({
      datasourceId: this.model.datasources[t.ds]?.id ?? '',
      table: t.key,
      score: round(tableScore[t.index] ?? 0),
      joinPath: false,
    }));
    for (const [ds, keys] of joined) {
      for (const key of keys) {
        if (topKeys.has(`${ds}\u0000${key}`)) continue;
        const t = this.model.tables.find((x) => x.ds === ds && x.key === key);
        tables.push({
          datasourceId: this.model.datasources[ds]?.id ?? '',
          table: key,
          score: round(t ? (tableScore[t.index] ?? 0) : 0),
          joinPath: true,
        });
      }
    }
    return { tables, columns, relationships };
  }

  /** Foreign-key columns joining two of the best tables (of one datasource) get part of their score. */
  private raiseJoinKeys(columnScore: Float64Array, tableScore: Float64Array, best: number[]): void {
    for (let i = 0; i < best.length; i++) {
      for (let j = i + 1; j < best.length; j++) {
        const a = this.model.tables[best[i] ?? -1];
        const b = this.model.tables[best[j] ?? -1];
        if (!a || !b || a.ds !== b.ds) continue;
        const graph = this.model.datasources[a.ds]?.graph;
        const path = graph?.path(a.key, b.key);
        if (!graph || !path) continue;
        const raise = WEIGHTS.joinKey * Math.min(tableScore[a.index] ?? 0, tableScore[b.index] ?? 0);
        for (const e of graph.edgesWithin(path)) {
          this.raiseColumns(columnScore, a.ds, e.table, e.columns, raise);
          this.raiseColumns(columnScore, a.ds, e.refTable, e.refColumns, raise);
        }
      }
    }
  }

  private raiseColumns(
    columnScore: Float64Array,
    ds: number,
    table: string,
    columns: readonly string[],
    raise: number,
  ): void {
    const t = this.model.tables.find((x) => x.ds === ds && x.key === table);
    for (const ci of t?.columns ?? []) {
      const c = this.model.columns[ci];
      if (c && columns.some((n) => n.toLowerCase() === c.name.toLowerCase())) {
        columnScore[ci] = (columnScore[ci] ?? 0) + raise;
      }
    }
  }

  /**
   * Scores of recent questions: the pipeline routes a question, then links it, so the second call
   * reuses the first one's work (and, with a remote embedder, its embedding request).
   */
  private readonly recent = new Map<string, Promise<Scores>>();

  private score(question: string, options: EvidenceOptions): Promise<Scores> {
    const key = `${options.valueFilter?.scope ?? '*'}\u0000${question}`;
    const hit = this.recent.get(key);
    if (hit) return hit;
    const scores = this.computeScores(question, options.valueFilter?.accept ?? null);
    this.recent.set(key, scores);
    scores.catch(() => this.recent.delete(key));
    if (this.recent.size > RECENT_QUESTIONS) this.recent.delete(this.recent.keys().next().value ?? '');
    return scores;
  }

  private async computeScores(
    question: string,
    accept: ((m: ValueMatch) => boolean) | null,
  ): Promise<Scores> {
    const m = this.model;
    const datasource = new Float64Array(m.datasources.length);
    const table = new Float64Array(m.tables.length);
    const column = new Float64Array(m.columns.length);
    const bestTable = new Float64Array(m.datasources.length);
    const terms = this.analyser.analyse(question);
    for (const q of terms) this.addTerm(q, datasource, table, column);
    this.addCoverage(terms, table, column);
    const matches = this.values.lookup(question, { perColumn: 3, limit: 60 });
    this.addValueEvidence(accept ? matches.filter(accept) : matches, datasource, table, column);
    // A question is about a coherent part of one datasource: its best table counts for the datasource,
    // which keeps a large schema from winning on scattered chance matches.
    for (const t of m.tables) bestTable[t.ds] = Math.max(bestTable[t.ds] ?? 0, table[t.index] ?? 0);
    const [qv] = await this.embedder.embed([question]);
    if (qv) {
      const w = WEIGHTS.dense;
      for (const t of m.tables) table[t.index] = (table[t.index] ?? 0) + w * Math.max(0, dot(qv, t.vector));
      for (const c of m.columns)
        column[c.index] = (column[c.index] ?? 0) + w * Math.max(0, dot(qv, c.vector));
      for (const d of m.datasources) {
        if (d.vector) datasource[d.index] = (datasource[d.index] ?? 0) + w * Math.max(0, dot(qv, d.vector));
      }
    }
    for (const d of m.datasources)
      datasource[d.index] = (datasource[d.index] ?? 0) + WEIGHTS.bestTable * (bestTable[d.index] ?? 0);
    return { datasource, table, column };
  }

  /**
   * A value the question names is evidence for the column that stores it, its table and its
   * datasource; less so when several datasources store it ("USA" says little, "Gelderland" a lot).
   * Each value text counts once per node, at its best match.
   */
  private addValueEvidence(
    matches: readonly ValueMatch[],
    datasource: Float64Array,
    table: Float64Array,
    column: Float64Array,
  ): void {
    const strong = matches.filter((m) => m.score >= VALUE_EVIDENCE_MIN);
    if (!strong.length) return;
    const holders = new Map<string, Set<string>>();
    for (const m of strong) {
      const text = normaliseText(m.value);
      let set = holders.get(text);
      if (!set) holders.set(text, (set = new Set()));
      set.add(m.datasourceId);
    }
    const nd = Math.max(1, this.model.datasources.length);
    const best = {
      ds: new Map<string, number>(),
      table: new Map<string, number>(),
      column: new Map<string, number>(),
    };
    const keep = (map: Map<string, number>, key: string, v: number) => {
      if ((map.get(key) ?? 0) < v) map.set(key, v);
    };
    for (const m of strong) {
      const c = this.columnByKey.get(`${m.datasourceId}\u0000${m.table}\u0000${m.column}`);
      const col = c === undefined ? undefined : this.model.columns[c];
      if (!col) continue;
      const text = normaliseText(m.value);
      const spread = holders.get(text)?.size ?? 1;
      const rarity = nd > 1 ? Math.log(1 + nd / spread) / Math.log(1 + nd) : 1;
      const v = m.score * rarity;
      keep(best.column, `${col.index}\u0000${text}`, v);
      keep(best.table, `${col.table}\u0000${text}`, v);
      keep(best.ds, `${col.ds}\u0000${text}`, v);
    }
    const add = (target: Float64Array, map: Map<string, number>, weight: number) => {
      // A node gets the best of each value text, and the texts add up.
      for (const [key, v] of map) {
        const i = Number(key.slice(0, key.indexOf('\u0000')));
        target[i] = (target[i] ?? 0) + weight * v;
      }
    };
    add(column, best.column, WEIGHTS.valueMatch.column);
    add(table, best.table, WEIGHTS.valueMatch.table);
    add(datasource, best.ds, WEIGHTS.valueMatch.datasource);
  }

  /** Raises tables and columns by how much of their name the question covers. */
  private addCoverage(terms: readonly QueryTerm[], table: Float64Array, column: Float64Array): void {
    const matched = new Map<string, number>();
    for (const q of terms)
      for (const [t, w] of q.alternatives) if ((matched.get(t) ?? 0) < w) matched.set(t, w);
    if (!matched.size) return;
    const cover = (nw: NameWords): number => {
      if (nw.joined && matched.has(nw.joined)) return matched.get(nw.joined) ?? 0;
      let got = 0;
      let all = 0;
      for (const alts of nw.words) {
        const idf = Math.max(...alts.map((a) => this.idf.get(a) ?? 1));
        all += idf;
        got += idf * Math.max(0, ...alts.map((a) => matched.get(a) ?? 0));
      }
      return all ? got / all : 0;
    };
    for (const t of this.model.tables) {
      const c = cover(t.nameWords);
      if (c) table[t.index] = (table[t.index] ?? 0) + WEIGHTS.coverage.table * c * c;
    }
    for (const col of this.model.columns) {
      const c = cover(col.nameWords);
      if (c) column[col.index] = (column[col.index] ?? 0) + WEIGHTS.coverage.column * c * c;
    }
  }

  /** Adds one question term's best match per datasource, table and column. */
  private addTerm(q: QueryTerm, datasource: Float64Array, table: Float64Array, column: Float64Array): void {
    const m = this.model;
    const bestColumn = new Map<number, number>();
    const bestTable = new Map<number, number>();
    const bestDs = new Map<number, number>();
    const keep = (map: Map<number, number>, i: number, v: number) => {
      if ((map.get(i) ?? 0) < v) map.set(i, v);
    };
    for (const [term, w] of q.alternatives) {
      const p = m.postings.get(term);
      if (!p) continue;
      const idf = (this.idf.get(term) ?? 0) * w;
      const idfDs = (this.idfDatasource.get(term) ?? 0) * w;
      for (const t of p.tableName) {
        keep(bestTable, t, idf * WEIGHTS.table.name);
        keep(bestDs, m.tables[t]?.ds ?? -1, idfDs * WEIGHTS.datasource.tableName);
      }
      for (const c of p.columnName) {
        const col = m.columns[c];
        if (!col) continue;
        keep(bestColumn, c, idf * WEIGHTS.column.name);
        keep(bestTable, col.table, idf * WEIGHTS.table.columnName);
        keep(bestDs, col.ds, idfDs * WEIGHTS.datasource.columnName);
      }
      for (const c of p.columnValue) {
        const col = m.columns[c];
        if (!col) continue;
        keep(bestColumn, c, idf * WEIGHTS.column.value);
        keep(bestTable, col.table, idf * WEIGHTS.table.value);
        keep(bestDs, col.ds, idfDs * WEIGHTS.datasource.value);
      }
      for (const t of p.tableComment) {
        keep(bestTable, t, idf * WEIGHTS.table.comment);
        keep(bestDs, m.tables[t]?.ds ?? -1, idfDs * WEIGHTS.datasource.comment);
      }
      for (const c of p.columnComment) {
        const col = m.columns[c];
        if (!col) continue;
        keep(bestColumn, c, idf * WEIGHTS.column.comment);
        keep(bestTable, col.table, idf * WEIGHTS.table.columnComment);
        keep(bestDs, col.ds, idfDs * WEIGHTS.datasource.comment);
      }
      for (const d of p.datasourceText) keep(bestDs, d, idfDs * WEIGHTS.datasource.text);
    }
    for (const [i, v] of bestColumn) column[i] = (column[i] ?? 0) + v;
    for (const [i, v] of bestTable) table[i] = (table[i] ?? 0) + v;
    for (const [i, v] of bestDs) if (i >= 0) datasource[i] = (datasource[i] ?? 0) + v;
  }
}

const RECENT_QUESTIONS = 32;

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/**
 * `npm run bench -- retrieval --data DIR [--json OUT] [--limit N] [--no-values]`
 *
 * Indexes every database of a Spider-layout folder with the `local` embedder, then for every
 * question measures: the routing rank of the gold database among all of them (top-1, top-3); the
 * recall of the gold SQL's tables (@3) and columns (@10) within the gold database; and the same
 * recall when the tables and columns of all databases form one schema (pooled: tables @5, columns
 * @10). A plain BM25 over the same schemas runs in the same process as the reference. Latency is one
 * question's routing plus linking in the best-ranked database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchArgs } from '../index';
import { loadSpider } from '../support/spider';
import type { SchemaSnapshot } from '../../src/engine/datasources/schema';
import { IndexService } from '../../src/engine/index/index-service';
import { LocalEmbedder } from '../../src/engine/index/embedders/local-embedder';
import { DuckDbIndexStore } from '../../src/engine/index/store/duckdb-index-store';
import { POOLED } from '../../src/engine/index/retriever';
import { bm25Corpora, words } from './bm25';
import { goldSchema } from './gold';
import { MethodScore, recall, type MethodFigures } from './metrics';
import { introspectSqlite, sqliteValueSource } from '../support/sqlite-snapshot';

export interface RetrievalFigures extends MethodFigures {
  suite: 'retrieval';
  questions: number;
  databases: number;
  bm25: MethodFigures;
}

const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());

export async function run(args: BenchArgs): Promise<RetrievalFigures> {
  if (!args.data) throw new Error('retrieval: --data DIR is required (a folder in Spider layout)');
  const data = loadSpider(args.data);
  const limit = args.options.limit ? Number(args.options.limit) : Infinity;
  const snapshots: SchemaSnapshot[] = data.databases.map((db) =>
    introspectSqlite(data.sqlitePath(db), db, { samples: 5 }),
  );
  const known = new Set(data.databases);
  const questions = data.questions
    .filter((q) => known.has(q.dbId) && data.schemas.has(q.dbId))
    .slice(0, limit);

  const dir = mkdtempSync(join(tmpdir(), 'bench-retrieval-'));
  const ours = new MethodScore();
  const bm25 = new MethodScore();
  const service = new IndexService({
    store: new DuckDbIndexStore(join(dir, 'index.duckdb')),
    embedder: new LocalEmbedder(),
  });
  try {
    await service.open();
    let started = performance.now();
    // With --no-values the index has no value index: the routing of the schema alone.
    const sources = args.options['no-values']
      ? []
      : data.databases.map((db) => sqliteValueSource(data.sqlitePath(db)));
    const built = await service.indexAll(
      snapshots.map((s, i) => ({ datasourceId: s.datasourceId, snapshot: s, values: sources[i] })),
    );
    for (const source of sources) source.close();
    ours.buildSeconds = (performance.now() - started) / 1000;
    if (built.errors.length) throw new Error(`index build failed: ${JSON.stringify(built.errors)}`);

    started = performance.now();
    const pooledBm25 = bm25Corpora(snapshots);
    const perDbBm25 = new Map(snapshots.map((s) => [s.datasourceId, bm25Corpora([s])]));
    bm25.buildSeconds = (performance.now() - started) / 1000;

    // Warm-up so the first measured question does not pay for lazy initialisation.
    await service.rankDatasources('warm up');

    for (const q of questions) {
      const schema = data.schemas.get(q.dbId);
      if (!schema) continue;
      const gold = goldSchema(q.sql, schema);
      const db = q.dbId.toLowerCase();
      const goldColumns = new Set([...gold.columns].map((c) => `${db}.${c}`));
      const goldTables = new Set([...gold.tables].map((t) => `${db}.${t}`));

      // Ours: the latency is what a question costs the pipeline (route, then link in the top datasource).
      const t0 = performance.now();
      const ranked = await service.rankDatasources(q.question);
      await service.linkSchema(q.question, ranked[0]?.datasourceId ?? q.dbId, { tables: 5, columns: 10 });
      ours.latencies.push(performance.now() - t0);
      const rank = ranked.findIndex((r) => r.datasourceId === q.dbId);
      ours.top1.add(rank === 0);
      ours.top3.add(rank >= 0 && rank < 3);
      const inDb = await service.linkSchema(q.question, q.dbId, { tables: 3, columns: 10 });
      ours.tables3.add(
        recall(goldTables, lower(inDb.tables.filter((t) => !t.joinPath).map((t) => `${q.dbId}.${t.table}`))),
      );
      ours.columns10.add(
        recall(goldColumns, lower(inDb.columns.map((c) => `${q.dbId}.${c.table}.${c.column}`))),
      );
      const pooled = await service.linkSchema(q.question, POOLED, { tables: 5, columns: 10 });
      ours.pooledTables5.add(
        recall(
          goldTables,
          lower(pooled.tables.filter((t) => !t.joinPath).map((t) => `${t.datasourceId}.${t.table}`)),
        ),
      );
      ours.pooledColumns10.add(
        recall(goldColumns, lower(pooled.columns.map((c) => `${c.datasourceId}.${c.table}.${c.column}`))),
      );

      // BM25 reference.
      const b0 = performance.now();
      const query = words(q.question);
      const routing = pooledBm25.routing.rank(query);
      const top = perDbBm25.get(routing[0] ?? q.dbId);
      top?.tables.rank(query);
      top?.columns.rank(query);
      bm25.latencies.push(performance.now() - b0);
      const brank = routing.indexOf(q.dbId);
      bm25.top1.add(brank === 0);
      bm25.top3.add(brank >= 0 && brank < 3);
      const own = perDbBm25.get(q.dbId);
      if (own) {
        bm25.tables3.add(
          recall(
            goldTables,
            lower(
              own.tables
                .rank(query)
                .slice(0, 3)
                .map((t) => `${t.db}.${t.table}`),
            ),
          ),
        );
        bm25.columns10.add(
          recall(
            goldColumns,
            lower(
              own.columns
                .rank(query)
                .slice(0, 10)
                .map((c) => `${c.db}.${c.table}.${c.column}`),
            ),
          ),
        );
      }
      bm25.pooledTables5.add(
        recall(
          goldTables,
          lower(
            pooledBm25.tables
              .rank(query)
              .slice(0, 5)
              .map((t) => `${t.db}.${t.table}`),
          ),
        ),
      );
      bm25.pooledColumns10.add(
        recall(
          goldColumns,
          lower(
            pooledBm25.columns
              .rank(query)
              .slice(0, 10)
              .map((c) => `${c.db}.${c.table}.${c.column}`),
          ),
        ),
      );
    }
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const figures: RetrievalFigures = {
    suite: 'retrieval',
    questions: questions.length,
    databases: snapshots.length,
    ...ours.figures(),
    bm25: bm25.figures(),
  };
  print(figures);
  return figures;
}

function print(f: RetrievalFigures): void {
  const rows: [string, Exclude<keyof MethodFigures, 'query_ms'>][] = [
    ['routing top-1', 'routing_top1'],
    ['routing top-3', 'routing_top3'],
    ['in-db table recall@3', 'table_recall_at_3'],
    ['in-db column recall@10', 'column_recall_at_10'],
    ['pooled table recall@5', 'pooled_table_recall_at_5'],
    ['pooled column recall@10', 'pooled_column_recall_at_10'],
    ['build (s)', 'build_s'],
  ];
  console.log(`retrieval: ${f.questions} questions, ${f.databases} databases`);
  console.log(`${'metric'.padEnd(26)}${'index'.padStart(10)}${'bm25'.padStart(10)}`);
  for (const [label, key] of rows) {
    console.log(`${label.padEnd(26)}${String(f[key]).padStart(10)}${String(f.bm25[key]).padStart(10)}`);
  }
  for (const p of ['p50', 'p95'] as const) {
    const ratio = f.bm25.query_ms[p] > 0 ? (f.query_ms[p] / f.bm25.query_ms[p]).toFixed(1) : '-';
    console.log(
      `${`query ms ${p}`.padEnd(26)}${String(f.query_ms[p]).padStart(10)}${String(f.bm25.query_ms[p]).padStart(10)}   (x${ratio} of bm25)`,
    );
  }
}

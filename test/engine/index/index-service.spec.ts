import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '../../../src/engine/errors';
import type { Embedder } from '../../../src/engine/index/embedders/embedder';
import { LocalEmbedder } from '../../../src/engine/index/embedders/local-embedder';
import { IndexService } from '../../../src/engine/index/index-service';
import { DuckDbIndexStore } from '../../../src/engine/index/store/duckdb-index-store';
import { createIndexService } from '../../../src/engine/index/index';
import { flights, school, shop, snapshot, table } from '../../support/index-fixtures';

/** Embeds `okCalls` build batches, then fails: a build that breaks half-way. Questions still embed. */
class BreakingEmbedder implements Embedder {
  readonly provider = 'local' as const;
  private calls = 0;
  constructor(
    private readonly inner: LocalEmbedder,
    private readonly okCalls: number,
  ) {}
  get model() {
    return this.inner.model;
  }
  async embed(texts: readonly string[]) {
    if (texts.length > 1 && ++this.calls > this.okCalls) throw new Error('embedding service went away');
    return this.inner.embed(texts);
  }
  usage() {
    return this.inner.usage();
  }
}

describe('IndexService over the DuckDB store', () => {
  let dir: string;
  let file: string;
  const services: IndexService[] = [];
  const open = async (embedder: Embedder = new LocalEmbedder(), batchSize?: number) => {
    const s = new IndexService({ store: new DuckDbIndexStore(file), embedder, batchSize });
    await s.open();
    services.push(s);
    return s;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'index-spec-'));
    file = join(dir, 'index.duckdb');
  });
  afterEach(async () => {
    while (services.length) await services.pop()!.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds entries of every kind from a snapshot and its description', async () => {
    const s = await open();
    const stats = await s.indexDatasource('shop', shop(), {
      description: 'Orders of the web shop',
      sampleQuestions: ['How many orders were placed last month?'],
      verifiedQueries: [{ id: 'orders_by_country', question: 'Orders per country', sql: 'SELECT 1' }],
    });
    expect(stats.counts).toEqual({
      'schema.datasource': 1,
      'schema.table': 4,
      'schema.column': 14,
      'schema.relationship': 3,
      sample_question: 1,
      verified_query: 1,
    });
    expect(stats.entries).toBe(24);
    expect(stats.index_version).toBe(1);
    const status = await s.status(['shop']);
    expect(status.counts['schema.column']).toBe(14);
    expect(status.total).toBe(24);
    expect(status.datasources).toEqual([
      expect.objectContaining({ datasource_id: 'shop', entries: 24, index_version: 1 }),
    ]);
    const again = await s.indexDatasource('shop', shop());
    expect(again.index_version).toBe(2);
  });

  it('goes missing -> ok -> stale (datasource removed, schema changed) -> ok after rebuild', async () => {
    const s = await open();
    let st = await s.status(['shop', 'school']);
    expect(st.status).toBe('missing');
    expect(st.problems[0]?.fix).toContain('index-all');

    const all = await s.indexAll([
      { datasourceId: 'shop', snapshot: shop() },
      { datasourceId: 'school', snapshot: async () => school() },
    ]);
    expect(all.errors).toEqual([]);
    expect(all.stats.map((x) => x.datasource_id)).toEqual(['shop', 'school']);
    st = await s.status(['shop', 'school']);
    expect(st.status).toBe('ok');
    expect(st.problems).toEqual([]);
    expect(st.built_at).toEqual(expect.any(String));

    // The school datasource is removed at runtime: its entries stay until the next full index.
    st = await s.status(['shop']);
    expect(st.status).toBe('stale');
    expect(st.problems).toEqual([
      expect.objectContaining({ code: 'DATASOURCE_REMOVED', datasource_id: 'school' }),
    ]);

    // A datasource added later has no build yet.
    st = await s.status(['shop', 'school', 'flights']);
    expect(st.status).toBe('stale');
    expect(st.problems[0]).toMatchObject({
      code: 'DATASOURCE_NOT_INDEXED',
      fix: 'POST /api/v1/index/flights',
    });

    // The snapshot a build was made from is gone: the schema changed.
    const changed = snapshot('shop', [...shop().tables, table('returns', [['return_id', 'integer']])]);
    st = await s.status([{ datasourceId: 'shop', schemaVersion: changed.schemaVersion }]);
    expect(st.status).toBe('stale');
    expect(st.problems[0]?.code).toBe('SCHEMA_CHANGED');

    const rebuilt = await s.indexAll([{ datasourceId: 'shop', snapshot: changed }]);
    expect(rebuilt.removed).toEqual(['school']);
    st = await s.status([{ datasourceId: 'shop', schemaVersion: changed.schemaVersion }]);
    expect(st.status).toBe('ok');
    expect(st.datasources.map((d) => d.datasource_id)).toEqual(['shop']);
  });

  it('is empty when the datasources hold no table, or none is configured', async () => {
    const s = await open();
    expect((await s.status([])).status).toBe('empty');
    const result = await s.indexAll([{ datasourceId: 'bare', snapshot: snapshot('bare', []) }]);
    expect(result.empty).toEqual([{ datasource_id: 'bare', reason: 'no tables found' }]);
    const st = await s.status(['bare']);
    expect(st.status).toBe('empty');
    expect(st.problems[0]).toMatchObject({ code: 'NO_TABLES', datasource_id: 'bare' });
  });

  it('keeps the previous entries answering when a build fails half-way', async () => {
    const good = await open();
    await good.indexDatasource('shop', shop());
    const before = await good.status(['shop']);
    await good.close();
    services.pop();

    // Batches of 4 entries: the third batch fails after two were written beside the live build.
    const breaking = await open(new BreakingEmbedder(new LocalEmbedder(), 2), 4);
    const bigger = snapshot('shop', [
      ...shop().tables,
      table('returns', [
        ['return_id', 'integer'],
        ['reason', 'text'],
      ]),
    ]);
    await expect(breaking.indexDatasource('shop', bigger)).rejects.toMatchObject({
      code: 'INDEX_BUILD_FAILED',
    });
    const after = await breaking.status(['shop']);
    expect(after.datasources).toEqual(before.datasources);
    expect(after.counts).toEqual(before.counts);
    const link = await breaking.linkSchema('total amount of orders', 'shop', { tables: 2, columns: 3 });
    expect(link.tables.map((t) => t.table)).toContain('orders');
    expect(link.tables.map((t) => t.table)).not.toContain('returns');

    // index-all reports the failure and keeps going.
    const all = await breaking.indexAll([
      { datasourceId: 'shop', snapshot: bigger },
      { datasourceId: 'gone', snapshot: () => Promise.reject(new Error('connection refused')) },
    ]);
    expect(all.errors).toEqual([
      expect.objectContaining({ datasource_id: 'shop', error_code: 'INDEX_BUILD_FAILED' }),
      expect.objectContaining({
        datasource_id: 'gone',
        error: expect.stringContaining('connection refused'),
      }),
    ]);
    expect((await breaking.status(['shop'])).datasources).toEqual(before.datasources);
  });

  it('reports missing when the embedding model changes', async () => {
    const s = await open(new LocalEmbedder(512));
    await s.indexDatasource('shop', shop());
    await s.close();
    services.pop();
    const other = await open(new LocalEmbedder(256));
    const st = await other.status(['shop']);
    expect(st.status).toBe('missing');
    expect(st.embedding_model).toBe('local-hash-v1-256');
    expect(st.problems[0]).toMatchObject({
      code: 'MODEL_CHANGED',
      message: expect.stringContaining('local-hash-v1-512'),
    });
    expect(await other.rankDatasources('orders')).toEqual([]);
  });

  it('clears the namespace and says what it removed', async () => {
    const s = await open();
    await s.indexAll([
      { datasourceId: 'shop', snapshot: shop() },
      { datasourceId: 'school', snapshot: school() },
    ]);
    const cleared = await s.clear();
    expect(cleared.removed_builds).toBe(2);
    expect(Object.keys(cleared.datasources).sort()).toEqual(['school', 'shop']);
    expect(cleared.removed_entries).toBe(Object.values(cleared.datasources).reduce((a, b) => a + b, 0));
    expect((await s.status(['shop'])).status).toBe('missing');
    expect(await s.rankDatasources('student')).toEqual([]);
  });

  it('rejects a snapshot of another datasource with a clear code', async () => {
    const s = await open();
    await expect(s.indexDatasource('shop', school())).rejects.toMatchObject({
      code: 'INDEX_SNAPSHOT_MISMATCH',
    });
    await expect(s.indexDatasource('shop', school())).rejects.toBeInstanceOf(EngineError);
  });

  it('computes similarity in DuckDB and finds the same best column as the retriever', async () => {
    const embedder = new LocalEmbedder();
    const store = new DuckDbIndexStore(file);
    const s = new IndexService({ store, embedder });
    await s.open();
    services.push(s);
    await s.indexAll([
      { datasourceId: 'flights', snapshot: flights() },
      { datasourceId: 'school', snapshot: school() },
    ]);
    const [q] = await embedder.embed(['destination airport']);
    const hits = await store.search(s.scope, q!, { k: 3, kinds: ['schema.column'] });
    expect(hits[0]?.entry.key).toBe('flights.DestAirport');
    expect(hits[0]!.score).toBeGreaterThan(hits[2]!.score);
    const only = await store.search(s.scope, q!, { k: 5, datasourceIds: ['school'] });
    expect(only.every((h) => h.entry.datasourceId === 'school')).toBe(true);
  });

  it("gives the value index the schema's names: a column's word alone finds no value", async () => {
    const s = await open();
    // `founded_on` holds dates, no values: only the schema says "founded" is a column's word.
    const towns = snapshot('towns', [
      table('towns', [
        ['name', 'text'],
        ['founded_on', 'date'],
      ]),
    ]);
    const values = {
      async distinctValues() {
        return [
          { value: 'Founders Quarter', count: 2 },
          { value: 'Founded Hill', count: 1 },
        ];
      },
    };
    await s.indexDatasource('towns', towns, {}, values);
    expect(s.lookupValues('When was each town founded?')).toEqual([]);
    // A phrase the question names is found as before.
    expect(s.lookupValues('Which town is Founded Hill?').map((m) => m.value)).toEqual(['Founded Hill']);
  });

  it('is built from the config sections', async () => {
    const s = createIndexService({
      embeddings: { provider: 'local' },
      storage: { index: { path: dir, namespace: 'tenant_a' } },
    });
    await s.open();
    services.push(s);
    await s.indexDatasource('school', school());
    const st = await s.status(['school']);
    expect(st).toMatchObject({ status: 'ok', namespace: 'tenant_a', embedding_model: 'local-hash-v1-512' });
  });
});

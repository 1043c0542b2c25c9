/**
 * The value index is built with the schema index, read through the real SQLite adapter, and
 * switches with the rest of a datasource's build: a rebuild replaces the values, a failed build
 * keeps the previous ones answering.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SecretManager } from '../../../src/config/secrets';
import type { DatasourceAdapter } from '../../../src/engine/datasources/adapter';
import { createAdapter } from '../../../src/engine/datasources/factory';
import type { Embedder } from '../../../src/engine/index/embedders/embedder';
import { LocalEmbedder } from '../../../src/engine/index/embedders/local-embedder';
import { IndexService } from '../../../src/engine/index/index-service';
import { DuckDbIndexStore } from '../../../src/engine/index/store/duckdb-index-store';

/** Embeds questions, fails every build batch: a build that breaks after its values were read. */
class FailingBuildEmbedder implements Embedder {
  readonly provider = 'local' as const;
  private readonly inner = new LocalEmbedder();
  get model() {
    return this.inner.model;
  }
  async embed(texts: readonly string[]) {
    if (texts.length > 1) throw new Error('embedding service went away');
    return this.inner.embed(texts);
  }
  usage() {
    return this.inner.usage();
  }
}

describe('value index builds', () => {
  let dir: string;
  let dbPath: string;
  let adapter: DatasourceAdapter;
  const services: IndexService[] = [];
  const open = async (embedder: Embedder = new LocalEmbedder()) => {
    const s = new IndexService({ store: new DuckDbIndexStore(join(dir, 'index.duckdb')), embedder });
    await s.open();
    services.push(s);
    return s;
  };
  const write = (sql: string) => {
    const db = new Database(dbPath);
    db.exec(sql);
    db.close();
  };
  const found = (s: IndexService, q: string) =>
    s.lookupValues(q).map((m) => `${m.table}.${m.column}=${m.value}`);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'value-build-'));
    dbPath = join(dir, 'geo.sqlite');
    write(`
      CREATE TABLE provinces (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL, population INTEGER, founded TEXT);
      INSERT INTO provinces VALUES
        (1, 'Gelderland', 'Netherlands', 2100000, '1815-01-01'),
        (2, 'Utrecht', 'Netherlands', 1300000, '1815-01-01'),
        (3, 'Bavaria', 'Germany', 13000000, '1806-01-01'),
        (4, 'Saxony', 'Germany', 4000000, '1806-01-01');`);
    adapter = createAdapter(
      { id: 'geo', type: 'sqlite', connection: { path: dbPath } },
      { secrets: new SecretManager({}) },
    );
  });
  afterEach(async () => {
    while (services.length) await services.pop()!.close();
    await adapter.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the distinct text values, most frequent first, and no numbers or dates', async () => {
    const s = await open();
    const stats = await s.indexDatasource('geo', await adapter.introspect(), {}, adapter);
    expect(stats.values).toBe(6);
    expect(found(s, 'provinces of the netherlands')).toEqual(['provinces.country=Netherlands']);
    expect(s.values().typical('geo', 'provinces', 'country', 5)).toEqual(['Germany', 'Netherlands']);
    expect(s.lookupValues('founded in 1815 with 2100000 people')).toEqual([]);
    expect(
      s
        .values()
        .all()
        .map((v) => v.value),
    ).not.toContain('1815-01-01');
  });

  it('switches values with the rest of the build, and keeps them when a build fails', async () => {
    const s = await open();
    await s.indexDatasource('geo', await adapter.introspect(), {}, adapter);
    write(`UPDATE provinces SET name = 'Overijssel' WHERE name = 'Gelderland'`);
    // The data changed but no build ran: the index still answers with what it read.
    expect(found(s, 'Gelderland')).toEqual(['provinces.name=Gelderland']);

    await s.indexDatasource('geo', await adapter.introspect(), {}, adapter);
    expect(found(s, 'Gelderland')).toEqual([]);
    expect(found(s, 'Overijssel')).toEqual(['provinces.name=Overijssel']);
    await s.close();
    services.pop();

    // A build that fails after reading the new values leaves the live ones in place, also on disk.
    write(`UPDATE provinces SET name = 'Drenthe' WHERE name = 'Overijssel'`);
    const failing = await open(new FailingBuildEmbedder());
    await expect(
      failing.indexDatasource('geo', await adapter.introspect(), {}, adapter),
    ).rejects.toMatchObject({
      code: 'INDEX_BUILD_FAILED',
    });
    expect(found(failing, 'Overijssel')).toEqual(['provinces.name=Overijssel']);
    expect(found(failing, 'Drenthe')).toEqual([]);
    await failing.close();
    services.pop();
    const reopened = await open();
    expect(found(reopened, 'Overijssel')).toEqual(['provinces.name=Overijssel']);

    // Clearing the index clears its values.
    await reopened.clear();
    expect(found(reopened, 'Overijssel')).toEqual([]);
  });
});

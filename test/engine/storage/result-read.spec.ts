import { copyFileSync, mkdirSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import {
  InvalidPageRequestError,
  LocalResultStore,
  RESULT_NOT_FOUND_MESSAGE,
} from '../../../src/engine/storage';
import { NotFoundError } from '../../../src/engine/errors';
import { numberedRows, tempRoot } from '../../support/storage-helpers';

const TOTAL = 2345;

describe('LocalResultStore.readPage', () => {
  const root = tempRoot('results-read');
  const store = new LocalResultStore(root.path);
  beforeAll(async () => {
    await store.writeResult('acme', 'run1', 'main', numberedRows(TOTAL, 500));
    await store.writeResult('other', 'run9', 'main', numberedRows(5));
  });
  afterAll(async () => {
    await store.close();
    root.remove();
  });

  it('returns the first page with the default limit of 100', async () => {
    const page = await store.readPage('acme', 'run1', 'main');
    expect(page).toMatchObject({
      request_id: 'run1',
      result_id: 'main',
      columns: ['n', 'label'],
      offset: 0,
      limit: 100,
      total_rows: TOTAL,
      next_offset: 100,
    });
    expect(page.rows).toHaveLength(100);
    expect(page.rows[0]).toEqual([0, 'row 0']);
    expect(page.rows[99]).toEqual([99, 'row 99']);
  });

  it('returns rows[i] as row offset + i in the middle', async () => {
    const page = await store.readPage('acme', 'run1', 'main', { offset: 1234, limit: 7 });
    expect(page.rows.map((r) => r[0])).toEqual([1234, 1235, 1236, 1237, 1238, 1239, 1240]);
    expect(page.next_offset).toBe(1241);
  });

  it('ends the last page at the last row with next_offset null', async () => {
    const page = await store.readPage('acme', 'run1', 'main', { offset: TOTAL - 45, limit: 100 });
    expect(page.rows).toHaveLength(45);
    expect(page.rows[44]).toEqual([TOTAL - 1, `row ${TOTAL - 1}`]);
    expect(page.next_offset).toBeNull();
  });

  it('gives next_offset null when the page ends exactly at the last row', async () => {
    const page = await store.readPage('acme', 'run1', 'main', { offset: TOTAL - 5, limit: 5 });
    expect(page.rows).toHaveLength(5);
    expect(page.next_offset).toBeNull();
  });

  it('returns no rows past the end', async () => {
    const page = await store.readPage('acme', 'run1', 'main', { offset: TOTAL + 10, limit: 10 });
    expect(page).toMatchObject({ rows: [], offset: TOTAL + 10, total_rows: TOTAL, next_offset: null });
  });

  it('cuts a limit above 1000 to 1000 and reports it', async () => {
    const page = await store.readPage('acme', 'run1', 'main', { offset: 0, limit: 5000 });
    expect(page.limit).toBe(1000);
    expect(page.rows).toHaveLength(1000);
    expect(page.next_offset).toBe(1000);
  });

  it.each([
    [{ offset: -1 }, 'offset'],
    [{ limit: 0 }, 'limit'],
    [{ limit: -5 }, 'limit'],
    [{ offset: 1.5 }, 'offset'],
    [{ limit: Number.NaN }, 'limit'],
  ])('rejects %p with a typed error naming %s', async (page, field) => {
    const read = store.readPage('acme', 'run1', 'main', page);
    await expect(read).rejects.toBeInstanceOf(InvalidPageRequestError);
    await expect(read).rejects.toMatchObject({ code: 'INVALID_PAGE_REQUEST', details: { field } });
  });

  describe('not found, all alike', () => {
    const cases: [string, string, string, string][] = [
      ['unknown request', 'acme', 'nope', 'main'],
      ["another tenant's run", 'acme', 'run9', 'main'],
      ['a result the manifest does not list', 'acme', 'run1', 'other'],
      ['.. as request id', 'acme', '..', 'main'],
      ['a slash in the result id', 'acme', 'run1', '../run1/main'],
      ['a dot in the result id', 'acme', 'run1', 'main.parquet'],
      ['. as result id', 'acme', 'run1', '.'],
      ['an empty id', 'acme', '', 'main'],
      ['a traversal through the tenant', '../other', 'run9', 'main'],
    ];

    it.each(cases)('%s gives the same NotFoundError for pages and CSV', async (_label, tenant, req, res) => {
      // Started one at a time: a second promise rejecting while the first is awaited would be unhandled.
      for (const attempt of [
        () => store.readPage(tenant, req, res),
        () => store.streamCsv(tenant, req, res),
      ]) {
        const err: unknown = await attempt().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(NotFoundError);
        expect(err).toMatchObject({ code: 'NOT_FOUND', message: RESULT_NOT_FOUND_MESSAGE, details: {} });
      }
    });

    it('still reads the other tenant from its own store scope', async () => {
      const page = await store.readPage('other', 'run9', 'main');
      expect(page.total_rows).toBe(5);
    });

    it('serves no file whose own entry names another tenant, run or result, nor a file without one', async () => {
      await store.writeResult('acme', 'copied', 'main', numberedRows(3));
      const original = join(root.path, 'acme', 'copied', 'main.parquet');
      const copyTo = (tenant: string, req: string, res: string) => {
        mkdirSync(join(root.path, tenant, req), { recursive: true });
        copyFileSync(original, join(root.path, tenant, req, `${res}.parquet`));
      };
      copyTo('acme', 'copied2', 'main'); // another run
      copyTo('other', 'copied', 'main'); // another tenant
      copyTo('acme', 'copied', 'renamed'); // another result id
      // A parquet file with no entry at all, dropped into the run's folder.
      const db = await DuckDBInstance.create(':memory:');
      const conn = await db.connect();
      await conn.run(
        `COPY (SELECT 1 AS n) TO '${join(root.path, 'acme', 'copied', 'foreign.parquet')}' (FORMAT parquet)`,
      );
      conn.closeSync();
      db.closeSync();
      for (const [tenant, req, res] of [
        ['acme', 'copied2', 'main'],
        ['other', 'copied', 'main'],
        ['acme', 'copied', 'renamed'],
        ['acme', 'copied', 'foreign'],
      ] as const) {
        await expect(store.readPage(tenant, req, res)).rejects.toMatchObject({
          message: RESULT_NOT_FOUND_MESSAGE,
        });
      }
      // The original is still served; the foreign file beside it changed nothing.
      expect((await store.readPage('acme', 'copied', 'main')).total_rows).toBe(3);
    });
  });
});

import { LocalEmbedder } from '../../../src/engine/index/embedders/local-embedder';
import { IndexService } from '../../../src/engine/index/index-service';
import { POOLED } from '../../../src/engine/index/retriever';
import { DuckDbIndexStore } from '../../../src/engine/index/store/duckdb-index-store';
import { flights, school, shop, snapshot, table } from '../../support/index-fixtures';

describe('retrieval over several datasources', () => {
  let index: IndexService;

  beforeAll(async () => {
    index = new IndexService({ store: new DuckDbIndexStore(':memory:'), embedder: new LocalEmbedder() });
    await index.open();
    await index.indexAll([
      { datasourceId: 'shop', snapshot: shop(), meta: { description: 'Web shop sales' } },
      {
        datasourceId: 'school',
        snapshot: school(),
        meta: { sampleQuestions: ['Which pupils take algebra?'] },
      },
      { datasourceId: 'flights', snapshot: flights() },
    ]);
  });
  afterAll(() => index.close());

  it.each([
    ['How many orders did customers from France place?', 'shop'],
    ['What is the unit price of each product?', 'shop'],
    ['List the last names of students older than 20', 'school'],
    ['Which pupils take algebra?', 'school'],
    ['How many flights leave from Aberdeen?', 'flights'],
    ['Which airline has the most flights?', 'flights'],
  ])('routes %j to %s', async (question, expected) => {
    const ranked = await index.rankDatasources(question);
    expect(ranked.map((r) => r.datasourceId)).toHaveLength(3);
    expect(ranked[0]?.datasourceId).toBe(expected);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it('links a question to its columns, through abbreviations and camelCase', async () => {
    const link = await index.linkSchema('total amount and quantity of each order by date', 'shop', {
      tables: 2,
      columns: 4,
    });
    const cols = link.columns.map((c) => `${c.table}.${c.column}`);
    expect(cols).toEqual(expect.arrayContaining(['orders.total_amt', 'order_items.qty', 'orders.orderDate']));
    expect(link.columns.every((c) => c.datasourceId === 'shop')).toBe(true);
  });

  it('adds the tables on the join path between the chosen tables, and their foreign keys', async () => {
    // customers and products are joined only through orders and order_items.
    const link = await index.linkSchema('names of customers who bought a teapot product', 'shop', {
      tables: 2,
      columns: 5,
    });
    const ranked = link.tables.filter((t) => !t.joinPath).map((t) => t.table);
    expect(ranked.sort()).toEqual(['customers', 'products']);
    const via = link.tables.filter((t) => t.joinPath).map((t) => t.table);
    expect(via.sort()).toEqual(['order_items', 'orders']);
    const fks = link.relationships.map((r) => `${r.table}.${r.columns.join()}->${r.refTable}`);
    expect(fks.sort()).toEqual([
      'order_items.order_id->orders',
      'order_items.product_id->products',
      'orders.customer_id->customers',
    ]);
  });

  it('links over all datasources as one schema when pooled', async () => {
    const link = await index.linkSchema('grade of each student in a course', POOLED, {
      tables: 3,
      columns: 6,
    });
    expect(link.tables.slice(0, 3).every((t) => t.datasourceId === 'school')).toBe(true);
    expect(link.columns.map((c) => `${c.table}.${c.column}`)).toContain('enrollment.grade');
  });

  it('answers nothing for an unknown datasource rather than failing', async () => {
    expect(await index.linkSchema('orders', 'nope')).toEqual({ tables: [], columns: [], relationships: [] });
  });
});

describe("the database's own comments in retrieval", () => {
  let index: IndexService;
  // Terse names a question cannot find by themselves; the comments say what they hold.
  const hr = (withComments: boolean) => {
    const emp = table('emp', [
      ['id', 'integer'],
      ['c1', 'text'],
      ['c2', 'decimal'],
      ['c3', 'date'],
    ]);
    const org = table('t_org', [
      ['id', 'integer'],
      ['nm', 'text'],
    ]);
    if (!withComments) return snapshot('hr_bare', [emp, org]);
    return snapshot('hr', [
      {
        ...emp,
        comment: 'Staff on the payroll',
        columns: emp.columns.map((c) =>
          c.name === 'c2' ? { ...c, comment: 'Monthly salary before tax' } : c,
        ),
      },
      { ...org, comment: 'Departments of the company' },
    ]);
  };

  beforeAll(async () => {
    index = new IndexService({ store: new DuckDbIndexStore(':memory:'), embedder: new LocalEmbedder() });
    await index.open();
    await index.indexAll([
      { datasourceId: 'hr', snapshot: hr(true) },
      { datasourceId: 'hr_bare', snapshot: hr(false) },
    ]);
  });
  afterAll(() => index.close());

  it('links the column whose comment names what the question asks for, which its name alone does not', async () => {
    const question = 'What is the monthly salary of each member of staff?';
    const commented = await index.linkSchema(question, 'hr', { tables: 1, columns: 1 });
    expect(commented.columns.map((c) => `${c.table}.${c.column}`)).toEqual(['emp.c2']);
    const bare = await index.linkSchema(question, 'hr_bare', { tables: 1, columns: 1 });
    expect(bare.columns.map((c) => `${c.table}.${c.column}`)).not.toEqual(['emp.c2']);
  });

  it('ranks the table whose comment names what the question asks for', async () => {
    const link = await index.linkSchema('List every department', 'hr', { tables: 1, columns: 2 });
    expect(link.tables[0]?.table).toBe('t_org');
    // Routing hears the comments too: the commented twin wins.
    expect((await index.rankDatasources('monthly salary of the staff'))[0]?.datasourceId).toBe('hr');
  });
});

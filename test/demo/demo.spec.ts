/**
 * The demo database generator: real DuckDB files in a temp folder, built at a small scale so the
 * suite stays fast; the default size's fact-table count is checked by running the generator's
 * staging steps in memory (the constrained inserts are what makes a full build slow).
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { ConfigSchema, type RawConfig } from '../../src/config/schema';
import { validateStrict } from '../../src/config/strict-validate';
import {
  DEFAULT_DEMO_SIZES,
  DEMO_DATASOURCE,
  DEMO_TABLES,
  DEMO_SAMPLE_QUESTIONS,
  DEMO_SAMPLE_VERIFIED_QUERIES,
  DEMO_VERIFIED_QUERIES,
  demoSizesForScale,
  ensureDemoDatabase,
} from '../../src/demo';
import { generateSteps } from '../../src/demo/generate-steps';
import { createEngine } from '../../src/create-engine';
import { VerifiedQueries } from '../../src/engine/verified/verified-queries';

const SCALE = 0.02;

/** Each sample question's verified query, with the values the question names. */
const SAMPLE_QUESTION_PARAMS: Record<string, Record<string, string | number>> = {
  demo_revenue_per_region_for_year: { year: 2024 },
  demo_top_products_for_year: { year: 2023 },
  demo_monthly_revenue_for_year: { year: 2023 },
  demo_return_rate_by_category: {},
  demo_mobile_app_share_between_years: { from_year: 2022, to_year: 2024 },
  demo_top_employees_in_store_for_year: { year: 2024 },
  demo_average_order_value_by_loyalty_tier: {},
  demo_payment_methods_for_channel: { channel: 'online' },
};
const repoRoot = resolve(__dirname, '../..');
let workDir: string;

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'demo-db-'));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function freshPath(name: string): string {
  return join(workDir, name, 'demo.duckdb');
}

async function withDatabase<T>(path: string, use: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    return await use(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function rows(c: DuckDBConnection, sql: string, params?: Record<string, string | number>) {
  const reader = await c.runAndReadAll(sql, params);
  return reader.getRowObjectsJson() as Record<string, any>[];
}

/** Per table: row count and an order-independent digest of every value. */
async function fingerprint(path: string): Promise<Record<string, string>> {
  return withDatabase(path, async (c) => {
    const out: Record<string, string> = {};
    for (const t of DEMO_TABLES) {
      const [r] = await rows(c, `SELECT count(*) AS n, sum(hash(x)::HUGEINT)::VARCHAR AS h FROM ${t} x`);
      out[t] = `${r?.n}:${r?.h}`;
    }
    return out;
  });
}

function leftovers(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => n !== 'demo.duckdb') : [];
}

describe('ensureDemoDatabase', () => {
  let built: string;
  let result: Awaited<ReturnType<typeof ensureDemoDatabase>>;

  beforeAll(async () => {
    built = freshPath('main');
    result = await ensureDemoDatabase(built, { scale: SCALE });
  });

  it('builds the file and reports the row count of every table', async () => {
    expect(result.created).toBe(true);
    expect(result.path).toBe(resolve(built));
    expect(Object.keys(result.tables).sort()).toEqual([...DEMO_TABLES].sort());
    const counted = await withDatabase(built, async (c) => {
      const out: Record<string, number> = {};
      for (const t of DEMO_TABLES) out[t] = Number((await rows(c, `SELECT count(*) AS n FROM ${t}`))[0]?.n);
      return out;
    });
    expect(result.tables).toEqual(counted);
    for (const t of DEMO_TABLES) expect(counted[t]).toBeGreaterThan(0);
    expect(counted.orders).toBe(demoSizesForScale(SCALE).orders);
    expect(counted.customers).toBe(demoSizesForScale(SCALE).customers);
    expect(leftovers(join(workDir, 'main'))).toEqual([]);
  });

  it('declares a primary key on every table and the foreign keys between them', async () => {
    const constraints = await withDatabase(built, (c) =>
      rows(
        c,
        `SELECT table_name, constraint_type, constraint_column_names AS cols, referenced_table, referenced_column_names AS ref_cols
         FROM duckdb_constraints() WHERE schema_name = 'main' AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')`,
      ),
    );
    const withPk = constraints.filter((k) => k.constraint_type === 'PRIMARY KEY').map((k) => k.table_name);
    expect(withPk.sort()).toEqual([...DEMO_TABLES].sort());
    const fks = constraints
      .filter((k) => k.constraint_type === 'FOREIGN KEY')
      .map((k) => `${k.table_name}.${k.cols.join(',')} -> ${k.referenced_table}.${k.ref_cols.join(',')}`)
      .sort();
    expect(fks).toEqual(
      [
        'countries.region_id -> regions.region_id',
        'stores.country_code -> countries.country_code',
        'customers.country_code -> countries.country_code',
        'products.category_id -> categories.category_id',
        'employees.store_id -> stores.store_id',
        'employees.manager_id -> employees.employee_id',
        'orders.customer_id -> customers.customer_id',
        'orders.store_id -> stores.store_id',
        'orders.employee_id -> employees.employee_id',
        'order_items.order_id -> orders.order_id',
        'order_items.product_id -> products.product_id',
        'payments.order_id -> orders.order_id',
        'returns.order_item_id -> order_items.order_item_id',
      ].sort(),
    );
  });

  it('keeps the business rules a reader of the data would rely on', async () => {
    const violations = await withDatabase(built, (c) =>
      rows(
        c,
        `SELECT
          (SELECT count(*) FROM orders o JOIN (SELECT order_id, sum(line_total) s FROM order_items GROUP BY 1) i USING (order_id)
             WHERE o.total_amount <> i.s + o.shipping_fee) AS bad_totals,
          (SELECT count(*) FROM orders WHERE (channel = 'in_store') <> (employee_id IS NOT NULL)) AS bad_employee,
          (SELECT count(*) FROM orders WHERE (channel = 'in_store') = (store_id = 1)) AS bad_store,
          (SELECT count(*) FROM orders WHERE order_date NOT BETWEEN DATE '2022-01-01' AND DATE '2024-12-31'
             OR ordered_at::DATE <> order_date) AS bad_dates,
          (SELECT count(*) FROM customers c JOIN orders o USING (customer_id) WHERE o.order_date < c.signup_date) AS before_signup,
          (SELECT count(*) FROM orders o JOIN employees e USING (employee_id) WHERE o.order_date < e.hire_date) AS before_hire,
          (SELECT count(*) FROM payments p JOIN orders o USING (order_id) WHERE p.amount <> o.total_amount OR o.status = 'cancelled') AS bad_payments,
          (SELECT count(*) FROM returns r JOIN order_items i USING (order_item_id) JOIN orders o USING (order_id)
             WHERE r.quantity > i.quantity OR r.refund_amount > i.line_total OR r.returned_on <= o.order_date) AS bad_returns,
          (SELECT count(*) - count(DISTINCT email) FROM customers) AS duplicate_emails,
          (SELECT count(*) FROM employees WHERE (manager_id IS NULL) <> (job_title = 'Chief Executive Officer')) AS bad_managers`,
      ),
    );
    expect(violations[0]).toEqual({
      bad_totals: '0',
      bad_employee: '0',
      bad_store: '0',
      bad_dates: '0',
      before_signup: '0',
      before_hire: '0',
      bad_payments: '0',
      bad_returns: '0',
      duplicate_emails: '0',
      bad_managers: '0',
    });
  });

  it('has realistic shapes: nulls where natural, skewed popularity, a holiday peak', async () => {
    const facts = await withDatabase(built, async (c) => ({
      nulls: (
        await rows(
          c,
          `SELECT avg((phone IS NULL)::INT) AS phone, avg((birth_date IS NULL)::INT) AS birth FROM customers`,
        )
      )[0],
      topDecileShare: (
        await rows(
          c,
          `WITH p AS (SELECT product_id, count(*) AS n FROM order_items GROUP BY 1),
                r AS (SELECT n, ntile(10) OVER (ORDER BY n DESC) AS decile FROM p)
           SELECT sum(n) FILTER (WHERE decile = 1) / sum(n) AS share FROM r`,
        )
      )[0]?.share,
      months: await rows(c, `SELECT month(order_date) AS m, count(*) AS n FROM orders GROUP BY 1 ORDER BY 1`),
      emails: (await rows(c, `SELECT email FROM customers ORDER BY customer_id LIMIT 50`)).map(
        (r) => r.email,
      ),
    }));
    expect(facts.nulls?.phone).toBeGreaterThan(0.2);
    expect(facts.nulls?.phone).toBeLessThan(0.5);
    expect(facts.nulls?.birth).toBeGreaterThan(0.05);
    expect(facts.nulls?.birth).toBeLessThan(0.2);
    // Uniform picks would give the top tenth of products about 10% of the lines.
    expect(facts.topDecileShare).toBeGreaterThan(0.2);
    const perMonth = new Map(facts.months.map((r) => [Number(r.m), Number(r.n)]));
    expect(perMonth.get(12)!).toBeGreaterThan(1.5 * perMonth.get(1)!);
    for (const email of facts.emails) expect(email).toMatch(/^[a-z0-9._]+@(mail\.)?example\.(com|net|org)$/);
  });

  it('does not rebuild a complete file', async () => {
    const before = statSync(built).mtimeMs;
    const again = await ensureDemoDatabase(built, { scale: SCALE });
    expect(again.created).toBe(false);
    expect(again.tables).toEqual(result.tables);
    expect(statSync(built).mtimeMs).toBe(before);
  });

  it('is deterministic: a second build holds the same data', async () => {
    const other = freshPath('determinism');
    await ensureDemoDatabase(other, { scale: SCALE });
    expect(await fingerprint(other)).toEqual(await fingerprint(built));
  });

  it('rebuilds a file made for other sizes', async () => {
    const path = freshPath('resize');
    await ensureDemoDatabase(path, { scale: SCALE });
    const resized = await ensureDemoDatabase(path, { scale: SCALE / 2 });
    expect(resized.created).toBe(true);
    expect(resized.tables.orders).toBe(demoSizesForScale(SCALE / 2).orders);
    expect(leftovers(join(workDir, 'resize'))).toEqual([]);
  });

  it('refuses to overwrite a DuckDB file it did not make', async () => {
    const path = freshPath('foreign');
    mkdirSync(dirname(path), { recursive: true });
    const foreign = await DuckDBInstance.create(path);
    const c = await foreign.connect();
    await c.run('CREATE TABLE mine (x INTEGER)');
    c.closeSync();
    foreign.closeSync();
    const size = statSync(path).size;
    await expect(ensureDemoDatabase(path, { scale: SCALE })).rejects.toMatchObject({
      code: 'DEMO_PATH_OCCUPIED',
    });
    expect(statSync(path).size).toBe(size);
  });

  it('names an unreadable file instead of replacing it', async () => {
    const path = freshPath('garbage');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'not a database');
    await expect(ensureDemoDatabase(path, { scale: SCALE })).rejects.toMatchObject({
      code: 'DEMO_DATABASE_UNREADABLE',
      message: expect.stringContaining(path),
    });
    expect(readFileSync(path, 'utf8')).toBe('not a database');
  });

  it('leaves no file at the target when a build is aborted', async () => {
    const path = freshPath('aborted');
    const controller = new AbortController();
    const steps: string[] = [];
    const build = ensureDemoDatabase(path, {
      scale: SCALE,
      signal: controller.signal,
      onStep: (step) => {
        steps.push(step);
        if (step === 'order_items') controller.abort();
      },
    });
    await expect(build).rejects.toMatchObject({ code: 'DEMO_BUILD_ABORTED' });
    expect(steps).toContain('order_items');
    expect(steps).not.toContain('build_info');
    expect(existsSync(path)).toBe(false);
    expect(leftovers(join(workDir, 'aborted'))).toEqual([]);
  });

  it('names the failing step and cleans up when a step fails', async () => {
    const path = freshPath('failed');
    const build = ensureDemoDatabase(path, {
      scale: SCALE,
      onStep: (step) => {
        if (step === 'payments') throw new Error('disk full (simulated)');
      },
    });
    await expect(build).rejects.toMatchObject({
      code: 'DEMO_BUILD_FAILED',
      message: expect.stringMatching(/step 'payments'.*disk full/),
    });
    expect(existsSync(path)).toBe(false);
    expect(leftovers(join(workDir, 'failed'))).toEqual([]);
  });

  it('survives a process killed mid-build: no half file at the target, the next start rebuilds', async () => {
    const path = freshPath('killed');
    const script = `
      const { ensureDemoDatabase } = require('./src/demo');
      ensureDemoDatabase(${JSON.stringify(path)}, {
        scale: ${SCALE},
        onStep: (step) => { if (step === 'order_items') process.kill(process.pid, 'SIGKILL'); },
      });`;
    const child = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(child.signal).toBe('SIGKILL');
    expect(existsSync(path)).toBe(false);
    expect(leftovers(join(workDir, 'killed')).some((n) => n.startsWith('demo.duckdb.building-'))).toBe(true);

    const rebuilt = await ensureDemoDatabase(path, { scale: SCALE });
    expect(rebuilt.created).toBe(true);
    expect(leftovers(join(workDir, 'killed'))).toEqual([]);
  });

  it('runs every verified query with its declared parameters', async () => {
    const samples: Record<string, Record<string, string | number>> = {
      demo_revenue_per_region_for_year: { year: 2024 },
      demo_revenue_per_month_for_year: { year: 2023 },
      demo_revenue_by_category_for_year: { year: 2023 },
      demo_top_customers_in_country: { country: 'Germany' },
      demo_monthly_sales_for_region: { region: 'Europe', year: 2024 },
      ...SAMPLE_QUESTION_PARAMS,
    };
    await withDatabase(built, async (c) => {
      for (const q of DEMO_VERIFIED_QUERIES) {
        const placeholders = [...q.sql.matchAll(/(?<![:\w]):([a-z_][a-z0-9_]*)/gi)].map((m) => m[1]);
        expect(new Set(placeholders)).toEqual(new Set(Object.keys(q.params ?? {})));
        const params = samples[q.id];
        expect(params).toBeDefined();
        const result = await rows(c, q.sql.replace(/(?<![:\w]):([a-z_][a-z0-9_]*)/gi, '$$$1'), params);
        expect({ id: q.id, rows: result.length > 0 }).toEqual({ id: q.id, rows: true });
      }
      const months = await rows(
        c,
        DEMO_VERIFIED_QUERIES.find((q) => q.id === 'demo_monthly_sales_for_region')!.sql.replace(
          /:(region|year)\b/g,
          '$$$1',
        ),
        samples.demo_monthly_sales_for_region,
      );
      expect(months.map((m) => Number(m.month))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    });
  });

  it('passes the start-up check with every verified query, and offers one for each sample question', async () => {
    const dir = join(workDir, 'engine');
    const config: Record<string, unknown> = {
      datasources: [{ ...DEMO_DATASOURCE, connection: { path: built } }],
      verified_queries: DEMO_VERIFIED_QUERIES,
      storage: {
        results: { path: join(dir, 'results') },
        traces: { path: join(dir, 'traces') },
        index: { path: join(dir, 'index') },
      },
    };
    // Building the engine checks each verified query against the schema and refuses to start on a problem.
    const engine = await createEngine(config, { env: {} });
    const verified = engine.get(VerifiedQueries);
    try {
      expect(
        verified
          .forDatasource('demo')
          .map((v) => v.id)
          .sort(),
      ).toEqual(DEMO_VERIFIED_QUERIES.map((v) => v.id).sort());
      expect(DEMO_SAMPLE_VERIFIED_QUERIES.map((v) => v.id).sort()).toEqual(
        Object.keys(SAMPLE_QUESTION_PARAMS).sort(),
      );
      const withParams = DEMO_SAMPLE_VERIFIED_QUERIES.filter((v) => Object.keys(v.params ?? {}).length);
      expect(withParams.length).toBeGreaterThanOrEqual(4);
      // Sample questions and verified queries are listed in the same order; each question is the
      // best candidate of its own verified query.
      const candidates = DEMO_SAMPLE_QUESTIONS.map((q) => verified.candidate(q, ['demo'])?.query.id);
      expect(candidates).toEqual(DEMO_SAMPLE_VERIFIED_QUERIES.map((v) => v.id));
    } finally {
      await engine.close();
    }
  });

  it('answers each sample question with the joins it needs', async () => {
    const answers: Record<string, string> = {
      'What was the total revenue per region in 2024?': `
        SELECT r.region_name, sum(o.total_amount) AS revenue FROM orders o
        JOIN customers c ON c.customer_id = o.customer_id JOIN countries co ON co.country_code = c.country_code
        JOIN regions r ON r.region_id = co.region_id
        WHERE o.status <> 'cancelled' AND year(o.order_date) = 2024 GROUP BY 1`,
      'Which 10 products generated the most revenue in 2023?': `
        SELECT p.product_name, p.brand, sum(oi.line_total) AS revenue FROM order_items oi
        JOIN orders o ON o.order_id = oi.order_id JOIN products p ON p.product_id = oi.product_id
        WHERE o.status <> 'cancelled' AND year(o.order_date) = 2023 GROUP BY 1, 2 ORDER BY revenue DESC LIMIT 10`,
      'What was the revenue per month in 2023?': `
        SELECT month(order_date) AS m, sum(total_amount) AS revenue FROM orders
        WHERE status <> 'cancelled' AND year(order_date) = 2023 GROUP BY 1 ORDER BY 1`,
      'Which product categories have the highest return rate?': `
        SELECT c.category_name, count(r.return_id) / count(*) AS return_rate FROM order_items oi
        JOIN products p ON p.product_id = oi.product_id JOIN categories c ON c.category_id = p.category_id
        LEFT JOIN returns r ON r.order_item_id = oi.order_item_id GROUP BY 1 ORDER BY return_rate DESC`,
      'How has the share of mobile app orders changed from 2022 to 2024?': `
        SELECT year(order_date) AS y, avg((channel = 'mobile_app')::INT) AS share FROM orders GROUP BY 1 ORDER BY 1`,
      'Who were the top 5 employees by in-store sales in 2024?': `
        SELECT e.first_name, e.last_name, s.store_name, sum(o.total_amount) AS sales FROM orders o
        JOIN employees e ON e.employee_id = o.employee_id JOIN stores s ON s.store_id = e.store_id
        WHERE o.status <> 'cancelled' AND year(o.order_date) = 2024 GROUP BY 1, 2, 3 ORDER BY sales DESC LIMIT 5`,
      'What is the average order value for each loyalty tier?': `
        SELECT c.loyalty_tier, avg(o.total_amount) AS aov FROM orders o
        JOIN customers c ON c.customer_id = o.customer_id WHERE o.status <> 'cancelled' GROUP BY 1 ORDER BY aov DESC`,
      'Which payment methods are used most for online orders?': `
        SELECT p.payment_method, count(*) AS n FROM payments p JOIN orders o ON o.order_id = p.order_id
        WHERE o.channel = 'online' GROUP BY 1 ORDER BY n DESC`,
    };
    expect(Object.keys(answers).sort()).toEqual([...(DEMO_DATASOURCE.sample_questions ?? [])].sort());
    const results = await withDatabase(built, async (c) => {
      const out: Record<string, Record<string, any>[]> = {};
      for (const [question, sql] of Object.entries(answers)) out[question] = await rows(c, sql);
      return out;
    });
    for (const [question, result] of Object.entries(results)) {
      expect({ question, empty: result.length === 0 }).toEqual({ question, empty: false });
    }
    expect(results['What was the total revenue per region in 2024?']).toHaveLength(4);
    expect(results['Which 10 products generated the most revenue in 2023?']).toHaveLength(10);
    const mobile = results['How has the share of mobile app orders changed from 2022 to 2024?']!.map(
      (r) => r.share,
    );
    expect(mobile[2]).toBeGreaterThan(mobile[0]);
    const topReturned = results['Which product categories have the highest return rate?']![0]?.category_name;
    expect(['Shoes', "Women's Clothing", "Men's Clothing"]).toContain(topReturned);
    const tiers = results['What is the average order value for each loyalty tier?']!.map(
      (r) => r.loyalty_tier,
    );
    expect(tiers[tiers.length - 1]).toBe('Bronze');
  });
});

describe('demo sizes', () => {
  it('gives the default build a fact table of at least a million order lines', async () => {
    // The staging steps make every row of the fact table without the slow constrained inserts.
    const steps = generateSteps(DEFAULT_DEMO_SIZES);
    const upTo = steps.findIndex((s) => s.name === 'order_items_stage');
    expect(upTo).toBeGreaterThan(0);
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    try {
      for (const step of steps.slice(0, upTo + 1)) for (const sql of step.statements) await c.run(sql);
      const [r] = await rows(c, 'SELECT count(*) AS n FROM stg_items');
      expect(Number(r?.n)).toBeGreaterThanOrEqual(1_000_000);
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  });

  it('refuses a scale that is not a positive number', () => {
    for (const bad of [0, -1, Number.NaN, 1000]) expect(() => demoSizesForScale(bad)).toThrow(/scale/);
    expect(demoSizesForScale(1)).toEqual(DEFAULT_DEMO_SIZES);
  });
});

describe('committed configs', () => {
  const load = (name: string) => parse(readFileSync(join(repoRoot, 'config', name), 'utf8')) as RawConfig;

  it.each(['embedded-default.yaml', 'postgres.yaml', 'multi-datasource.yaml'])(
    '%s follows the config schema',
    (name) => {
      expect(validateStrict(ConfigSchema, load(name))).toEqual([]);
    },
  );

  it('embedded default serves exactly the exported demo datasource, its verified queries and key-free parts', () => {
    const config = load('embedded-default.yaml');
    expect(config.datasources).toEqual([DEMO_DATASOURCE]);
    expect(config.verified_queries).toEqual(DEMO_VERIFIED_QUERIES);
    expect(config.embeddings).toEqual({ provider: 'local' });
    expect(config.llm?.provider).toBe('ollama');
    expect(config.llm?.api_key).toBeUndefined();
    for (const store of [config.storage?.results, config.storage?.traces, config.storage?.index]) {
      expect(store?.path).toMatch(/^\.\/data\//);
    }
  });

  it('keeps passwords as environment references', () => {
    const postgres = load('postgres.yaml').datasources ?? [];
    expect(postgres).toHaveLength(1);
    expect(postgres[0]?.connection).toMatchObject({
      host: '127.0.0.1',
      port: 5432,
      password: '${env:PG_PASSWORD}',
    });
    const multi = load('multi-datasource.yaml');
    expect(multi.datasources?.map((d) => d.type).sort()).toEqual(['duckdb', 'mysql', 'postgres', 'sqlite']);
    expect(multi.api?.role_header).toBeTruthy();
    expect(Object.keys(multi.policies?.roles ?? {}).length).toBeGreaterThan(0);
    for (const d of multi.datasources ?? []) {
      if (d.connection.password !== undefined) expect(d.connection.password).toMatch(/^\$\{env:[A-Z_]+\}$/);
    }
  });
});

/**
 * The policy decision before compilation (src/engine/policy/plan-guard.ts): what it clears, what
 * it refuses and that it fails closed; that the compile step refuses a denied plan whatever its
 * plan source says (the logical validator skips verified plans, the compile step skips nothing);
 * and that the compile step stays the only way a plan becomes SQL that runs.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Test, type TestingModule } from '@nestjs/testing';
import { parseConfig } from '../../../src/config/loader';
import { DatasourceRegistry } from '../../../src/engine/datasources/registry';
import type { SchemaSnapshot } from '../../../src/engine/datasources/schema';
import { EngineModule } from '../../../src/engine/engine.module';
import { OperatorEvents, type OperatorEvent } from '../../../src/engine/events/operator-events';
import { RunEventEmitter } from '../../../src/engine/events/run-events';
import type { ModelGateway } from '../../../src/engine/run/model-gateway';
import { Generator } from '../../../src/engine/run/nodes/generator';
import type { PlanSource } from '../../../src/engine/run/query-response';
import { RunContext } from '../../../src/engine/run/run-context';
import { newRunState, newSubQuery, type SubQueryAttempt } from '../../../src/engine/run/run-state';
import { importSql } from '../../../src/engine/plan';
import type { Query } from '../../../src/engine/plan/types';
import { decidePlan, planAllowed } from '../../../src/engine/policy/plan-guard';
import type { RolePolicies } from '../../../src/engine/policy/rbac';
import { policyShopOn } from '../../support/policy-shop';

const POLICIES = {
  admin: {},
  analyst: { tables: { deny: ['shop.payroll'] }, columns: { deny: ['shop.customers.email'] } },
  elsewhere: { datasources: ['other'] },
} as unknown as NonNullable<RolePolicies>;

let moduleRef: TestingModule;
let snapshot: SchemaSnapshot;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-guard-'));
  const shop = await policyShopOn('sqlite');
  const config = parseConfig(
    {
      datasources: [shop.config],
      policies: { roles: POLICIES },
      storage: {
        results: { path: join(dir, 'results') },
        traces: { path: join(dir, 'traces') },
        index: { path: join(dir, 'index') },
      },
    },
    'plan guard test config',
    { baseDir: dir },
  );
  moduleRef = await Test.createTestingModule({
    imports: [EngineModule.forRoot(config, { env: {} })],
  }).compile();
  await moduleRef.init();
  snapshot = (await moduleRef.get(DatasourceRegistry).use('shop')).snapshot!;
});
afterAll(() => moduleRef.close());

const plan = (sql: string): Query => importSql(sql, 'sqlite', snapshot);
const subject = (roles: string[]) => ({ datasourceId: 'shop', roles, snapshot });

describe('decidePlan', () => {
  it('clears a plan that reads only what the roles may read', () => {
    const d = decidePlan(plan('SELECT name, country FROM customers'), subject(['analyst']), POLICIES);
    expect(d.kind).toBe('cleared');
  });

  it.each([
    ['a denied table', 'SELECT SUM(salary) FROM payroll', 'TABLE_DENIED'],
    [
      'a denied table in a subquery',
      'SELECT name FROM customers WHERE name IN (SELECT name FROM payroll)',
      'TABLE_DENIED',
    ],
    [
      'a denied table in a CTE',
      'WITH p AS (SELECT salary FROM payroll) SELECT COUNT(*) FROM p',
      'TABLE_DENIED',
    ],
    ['a denied column', 'SELECT email FROM customers', 'COLUMN_DENIED'],
    ['a denied column behind *', 'SELECT * FROM customers', 'COLUMN_DENIED'],
    [
      'a denied column in a filter only',
      "SELECT name FROM customers WHERE email LIKE '%x%'",
      'COLUMN_DENIED',
    ],
  ])('refuses %s with the validator code', (_what, sql, code) => {
    const d = decidePlan(plan(sql), subject(['analyst']), POLICIES);
    expect(d.kind).toBe('denied');
    if (d.kind === 'denied') expect(d.refusals[0]!.code).toBe(code);
    // The same plan is cleared for a role that may read everything.
    expect(decidePlan(plan(sql), subject(['admin']), POLICIES).kind).toBe('cleared');
  });

  it('refuses a datasource the roles may not read, and an unlisted role reads nothing', () => {
    const sql = 'SELECT name FROM customers';
    const d = decidePlan(plan(sql), subject(['elsewhere']), POLICIES);
    expect(d.kind === 'denied' && d.refusals[0]!.code).toBe('DATASOURCE_DENIED');
    expect(planAllowed(plan(sql), subject(['stranger']), POLICIES)).toBe(false);
    expect(planAllowed(plan(sql), subject([]), POLICIES)).toBe(false);
  });

  it('decides a verified plan with placeholders like any other', () => {
    const vq = plan('SELECT salary FROM payroll WHERE name = :name');
    expect(decidePlan(vq, subject(['analyst']), POLICIES).kind).toBe('denied');
    expect(decidePlan(vq, subject(['admin']), POLICIES).kind).toBe('cleared');
  });

  it('fails closed: a plan it cannot read through is never cleared', () => {
    const unknown = JSON.parse(JSON.stringify(plan('SELECT name FROM customers')));
    unknown.body.from.name = 'no_such_table';
    expect(decidePlan(unknown, subject(['admin']), POLICIES).kind).toBe('invalid');
    const malformed = { kind: 'query', body: { kind: 'select', nonsense: true } } as unknown as Query;
    expect(decidePlan(malformed, subject(['admin']), POLICIES).kind).toBe('invalid');
  });

  it('with no roles section, every role reads everything', () => {
    expect(decidePlan(plan('SELECT * FROM payroll'), subject([]), null).kind).toBe('cleared');
  });
});

describe('the compile step (Generator) decides for every plan source', () => {
  // A Record over the union: a new plan source does not compile here until it is listed.
  const SOURCES: Record<PlanSource, true> = {
    llm: true,
    cache: true,
    verified: true,
    supplied: true,
    approved: true,
    chosen: true,
  };

  function attempt(sql: string, source: PlanSource): SubQueryAttempt {
    const run = newRunState({
      question: 'q',
      datasourceId: 'shop',
      execute: true,
      caller: { roles: ['analyst'], userId: null },
    });
    const sq = newSubQuery('sq1', 'q', 'shop');
    sq.snapshot = snapshot;
    sq.plan = plan(sql);
    sq.planSource = source;
    if (source === 'verified') {
      sq.verified = { id: 'vq', datasourceId: 'shop', sql, params: {}, direct: true };
      sq.verifiedParams = {};
    }
    run.subQueries = [sq];
    return { run, sq, previous: null };
  }

  function context(events: OperatorEvents): RunContext {
    const emitter = new RunEventEmitter('t', 'default', () => undefined, false);
    return new RunContext('t', 'default', emitter, events, {} as ModelGateway, new AbortController().signal);
  }

  it.each(Object.keys(SOURCES) as PlanSource[])(
    'refuses a denied table and column from %s',
    async (source) => {
      const generator = moduleRef.get(Generator);
      const operator = new OperatorEvents();
      const seen: OperatorEvent[] = [];
      operator.subscribe((e) => seen.push(e));
      for (const [sql, code] of [
        ['SELECT SUM(salary) AS total FROM payroll', 'TABLE_DENIED'],
        ['SELECT name, email FROM customers', 'COLUMN_DENIED'],
      ] as const) {
        const a = attempt(sql, source);
        await expect(generator.run(a, context(operator))).rejects.toMatchObject({ code });
        expect(a.sq.executableSql).toBeNull();
        expect(a.sq.sql).toBeNull();
        expect(a.sq.validation).toEqual([expect.objectContaining({ name: 'policy', passed: false })]);
      }
      expect(seen.filter((e) => e.name === 'policy.denied')).toHaveLength(2);
    },
  );

  it('compiles an allowed plan from any source, the policy check recorded', async () => {
    const a = attempt('SELECT name FROM customers', 'verified');
    await moduleRef.get(Generator).run(a, context(new OperatorEvents()));
    expect(a.sq.executableSql).toMatch(/FROM "customers"/);
    expect(a.sq.validation).toContainEqual({ name: 'policy', passed: true, message: 'ok' });
  });
});

describe('the compile step is the only way to SQL that runs', () => {
  const ROOT = join(__dirname, '..', '..', '..');
  const files = (function walk(dir: string): string[] {
    return readdirSync(dir).flatMap((n) => {
      const full = join(dir, n);
      return statSync(full).isDirectory() ? walk(full) : n.endsWith('.ts') ? [full] : [];
    });
  })(join(ROOT, 'src')).map((f) => ({
    path: relative(ROOT, f).split(sep).join('/'),
    text: readFileSync(f, 'utf8'),
  }));

  /**
   * Files outside the plan layer that may call `compilePlan` directly, and why (matched by the end
   * of their path, so a move of the folders around them does not matter). Anything else compiles
   * through `compileCleared`, which takes only a plan the policy decision cleared.
   */
  const DIRECT_COMPILERS: Record<string, string> = {
    'policy/plan-guard.ts': 'compileCleared itself',
    'nodes/planner-examples.ts':
      "display SQL of the planner's examples, already filtered by the same decision; never run",
    'query/query.examples.ts': 'the OpenAPI example of a response; never run',
    'suggestions/template-sql.ts':
      'the text of a suggested verified query (admin only); never run: accepted, it is checked like any verified query and each run of it passes the decision',
  };
  const listed = (path: string) => Object.keys(DIRECT_COMPILERS).find((k) => path.endsWith(`/${k}`)) ?? path;

  it('only the listed files call compilePlan outside the plan layer', () => {
    const callers = files
      .filter((f) => !f.path.startsWith('src/engine/plan/') && /\bcompilePlan\s*\(/.test(f.text))
      .map((f) => listed(f.path))
      .sort();
    expect(callers).toEqual(Object.keys(DIRECT_COMPILERS).sort());
  });

  it('only the compile step sets the SQL that the executor runs', () => {
    const setters = files
      .filter((f) => /\.executableSql\s*=(?!=)(?!\s*null\b)/.test(f.text))
      .map((f) => f.path);
    expect(setters).toEqual([expect.stringMatching(/\/nodes\/generator\.ts$/)]);
  });
});

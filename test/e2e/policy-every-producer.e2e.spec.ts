/**
 * Issue 23 item 2: one policy decision on every plan about to be compiled, whatever produced it.
 * The producers are enumerated per `plan_source` (a `Record` over the PlanSource union, so a new
 * source does not compile here until it has producers), and the source code is read for every
 * place that sets a plan source, so a new producer of an existing source fails the last test until
 * it is listed. Each producer is run on real SQLite and PostgreSQL twice: with a role that may
 * read the data (proving the scenario really goes through that producer and that the denied data
 * would show), then with a role denied the table `payroll` or the column `customers.email`: the run
 * is refused with TABLE_DENIED / COLUMN_DENIED, worded as the planner path words it, and nothing
 * of the denied data, nor which verified query held it, reaches the caller.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Type } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DatasourceRegistry } from '../../src/engine/datasources/registry';
import { ENGINE_CONFIG, type EngineConfig } from '../../src/engine/engine-config';
import { PlanCache } from '../../src/engine/run/plan-cache';
import type { PlanSource } from '../../src/engine/run/query-response';
import { RunService } from '../../src/engine/run/run-service';
import { importSql } from '../../src/engine/plan';
import { roleScope } from '../../src/engine/policy/rbac';
import { startApp, type RunningApp } from '../support/app';
import { FakeModelServer } from '../support/fake-model';
import { http } from '../support/http';
import { PipelineModel, promptText, userText } from '../support/pipeline-model';
import { DENIED_MARKERS, policyShopOn, type PolicyEngine, type PolicyShop } from '../support/policy-shop';

type Target = 'table' | 'column';
type Role = 'admin' | 'analyst';

/** What a caller received: the error entries, the plan source and everything as text. */
interface Outcome {
  readonly status: string;
  readonly errors: readonly { error_code: string; message: string }[];
  readonly planSource: string | null;
  /** The first sub-query's SQL as shown. */
  readonly sql: string | null;
  readonly reasoning: readonly Record<string, unknown>[];
  readonly text: string;
}

interface Harness {
  readonly app: RunningApp;
  readonly model: PipelineModel;
}

interface Producer {
  readonly name: string;
  run(h: Harness, target: Target, role: Role): Promise<Outcome>;
  /** Checks that a run allowed to read the data was this producer's. */
  produced(o: Outcome, target: Target): void;
  /** The verified query the producer would use, which must not be named to a denied caller. */
  readonly verifiedId?: (target: Target) => string;
}

const DENIED_SQL: Record<Target, string> = {
  table: 'SELECT SUM(salary) AS total FROM payroll',
  column: 'SELECT name, email FROM customers ORDER BY id',
};

/** The verified queries: for each target, one answered with no model and one the model confirms. */
const VERIFIED = {
  table: {
    direct: { id: 'payroll_total', question: 'What is the total payroll?', params: {} },
    model: {
      id: 'salary_of',
      question: 'What is the salary of the employee named Zed?',
      params: { name: 'Ada' },
    },
  },
  column: {
    direct: { id: 'customer_emails', question: 'Give me the mailing directory', params: {} },
    model: {
      id: 'email_of',
      question: 'What is the email of the customer named Zed?',
      params: { name: 'Ada' },
    },
  },
} as const;

const VERIFIED_QUERIES = [
  {
    id: 'salary_of',
    datasource_id: 'shop',
    question: 'What is the salary of a given employee?',
    sql: 'SELECT salary FROM payroll WHERE name = :name',
    params: { name: { type: 'string', description: 'Employee name as stored' } },
  },
  {
    id: 'payroll_total',
    datasource_id: 'shop',
    question: 'What is the total payroll?',
    sql: DENIED_SQL.table,
  },
  {
    id: 'email_of',
    datasource_id: 'shop',
    question: 'What is the email of a given customer?',
    sql: 'SELECT email FROM customers WHERE name = :name',
    params: { name: { type: 'string', description: 'Customer name as stored' } },
  },
  {
    id: 'customer_emails',
    datasource_id: 'shop',
    question: 'Give me the mailing directory',
    sql: DENIED_SQL.column,
  },
];

const GENERATED_QUESTION: Record<Target, string> = {
  table: 'Add up what everybody earns',
  column: 'How do I write to each customer?',
};

async function ask(h: Harness, question: string, role: Role): Promise<Outcome> {
  const res = await http('POST', `${h.app.url}/api/v1/query`, {
    headers: { 'X-Roles': role },
    body: { natural_language: question, datasource_id: 'shop' },
  });
  expect(res.status).toBe(200);
  return fromResponse(res.json(), res.text);
}

function fromResponse(body: any, text: string): Outcome {
  return {
    status: body.status,
    errors: body.errors,
    planSource: body.sub_queries[0]?.plan_source ?? null,
    sql: body.sub_queries[0]?.sql ?? null,
    reasoning: body.reasoning,
    text,
  };
}

/** The planner answers every question with the SQL that reads the target (it names it). */
function scriptPlanner(h: Harness): void {
  h.model
    .on('sql_draft', (req) => ({
      json: {
        sql: /earn|salary|payroll/i.test(userText(req)) ? DENIED_SQL.table : DENIED_SQL.column,
        unanswerable_reason: null,
      },
    }))
    .on('match_verified_query', (req) => ({
      json: { matches: true, params: /- name \(/.test(userText(req)) ? { name: 'Ada' } : {} },
    }))
    .on('answer', { text: 'Here it is.' });
}

const mcpClients: Client[] = [];

async function mcp(h: Harness, role: Role): Promise<Client> {
  const client = new Client({ name: 'policy-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.app.url}/mcp`), {
      requestInit: { headers: { 'X-Roles': role } },
    }),
  );
  mcpClients.push(client);
  return client;
}

const llmSqlDraft: Producer = {
  name: 'the planner (SQL draft)',
  run: (h, target, role) => {
    scriptPlanner(h);
    return ask(h, GENERATED_QUESTION[target], role);
  },
  produced: (o) => expect(o.planSource).toBe('llm'),
};

const planCache: Producer = {
  name: 'the plan cache (a plan cached before a policy change, or by a replica with other rules)',
  run: async (h, target, role) => {
    const entry = h.app.engine.get(DatasourceRegistry).get('shop')!;
    const question = `Cached: ${GENERATED_QUESTION[target]}`;
    h.app.engine.get(PlanCache as unknown as Type<PlanCache>).set(
      {
        intent: question,
        datasourceId: 'shop',
        schemaVersion: entry.snapshot!.schemaVersion,
        roleScope: roleScope(h.app.engine.get<EngineConfig>(ENGINE_CONFIG).policies.roles, [role]),
      },
      importSql(DENIED_SQL[target], entry.snapshot!.dialect, entry.snapshot),
    );
    scriptPlanner(h);
    return ask(h, question, role);
  },
  produced: (o) => expect(o.planSource).toBe('cache'),
};

const verifiedDirect: Producer = {
  name: 'a verified query matched with no model call',
  verifiedId: (t) => VERIFIED[t].direct.id,
  run: (h, target, role) => {
    scriptPlanner(h);
    return ask(h, VERIFIED[target].direct.question, role);
  },
  produced: (o) => {
    expect(o.planSource).toBe('verified');
    expect(o.reasoning).toContainEqual(expect.objectContaining({ method: 'direct' }));
  },
};

const verifiedModel: Producer = {
  name: 'a verified query the model confirms',
  verifiedId: (t) => VERIFIED[t].model.id,
  run: (h, target, role) => {
    scriptPlanner(h);
    return ask(h, VERIFIED[target].model.question, role);
  },
  produced: (o, target) => {
    expect(o.planSource).toBe('verified');
    expect(o.reasoning).toContainEqual(
      expect.objectContaining({ method: 'model', candidate: VERIFIED[target].model.id }),
    );
  },
};

const verifiedById: Producer = {
  name: 'RunService.runVerified (a verified query run by id)',
  run: async (h, target, role) => {
    const { id, params } = VERIFIED[target].direct;
    const body = await h.app.engine.get(RunService).runVerified(id, params, { roles: [role], userId: null });
    return fromResponse(body, JSON.stringify(body));
  },
  produced: (o) => {
    expect(o.planSource).toBe('verified');
    expect(o.reasoning).toContainEqual(expect.objectContaining({ method: 'requested' }));
  },
};

const mcpRunVerified: Producer = {
  name: 'MCP run_verified_query over HTTP',
  run: async (h, target, role) => {
    const { id, params } = VERIFIED[target].direct;
    const result = (await (
      await mcp(h, role)
    ).callTool({ name: 'run_verified_query', arguments: { id, params } })) as {
      isError?: boolean;
      structuredContent?: any;
    };
    const s = result.structuredContent;
    return {
      status: s.status,
      errors: s.errors,
      planSource: s.source?.type === 'verified' ? 'verified' : null,
      sql: s.sub_queries?.[0]?.sql ?? null,
      reasoning: [],
      text: JSON.stringify(result),
    };
  },
  produced: (o) => expect(o.planSource).toBe('verified'),
};

/**
 * Every producer of each plan source. `supplied`, `approved` and `chosen` are spec values that no
 * path of the service produces today (the last test proves it); a producer added for one of them
 * must be added here.
 */
const PRODUCERS: { readonly [S in PlanSource]: readonly Producer[] } = {
  llm: [llmSqlDraft],
  cache: [planCache],
  verified: [verifiedDirect, verifiedModel, verifiedById, mcpRunVerified],
  supplied: [],
  approved: [],
  chosen: [],
};

const ALL = Object.entries(PRODUCERS).flatMap(([source, ps]) =>
  ps.map((p) => ({ source, producer: p, label: `${source}: ${p.name}` })),
);

const REFUSAL_SHAPE: Record<Target, RegExp> = {
  table: /^refused: The caller's roles may not read table "payroll"\. Answer without it\.$/,
  column: /^refused: The caller's roles may not read column "customers\.email"\. Answer without it\.$/,
};

describe.each<PolicyEngine>(['sqlite', 'postgres'])('on %s', (engineType) => {
  let fake: FakeModelServer;
  let shop: PolicyShop;
  let h: Harness;

  beforeAll(async () => {
    fake = await FakeModelServer.start();
    shop = await policyShopOn(engineType);
    const app = await startApp({
      api: { role_header: 'X-Roles' },
      datasources: [shop.config],
      policies: {
        roles: {
          admin: {},
          analyst: { tables: { deny: ['shop.payroll'] }, columns: { deny: ['shop.customers.email'] } },
        },
      },
      verified_queries: VERIFIED_QUERIES,
      llm: {
        provider: 'openai_compatible',
        model: 'fake-model',
        base_url: fake.openaiBaseUrl,
        planner_format: 'sql',
      },
    });
    h = { app, model: new PipelineModel(fake) };
  });
  afterAll(async () => {
    for (const c of mcpClients.splice(0)) await c.close();
    await h?.app.close();
    await fake.close();
    await shop.drop();
  });
  beforeEach(() => {
    fake.reset();
    h = { app: h.app, model: new PipelineModel(fake) };
  });

  describe.each(ALL)('$label', ({ producer }) => {
    it.each<Target>(['table', 'column'])(
      'produces the plan for a role that may read the %s',
      async (target) => {
        const o = await producer.run(h, target, 'admin');
        expect(o.errors).toEqual([]);
        expect(o.status).toBe('success');
        producer.produced(o, target);
        // The markers are really in the data: their absence below means something.
        expect(DENIED_MARKERS[target].some((m) => o.text.includes(m))).toBe(true);
      },
    );

    it.each<Target>(['table', 'column'])(
      'refuses it for a role denied the %s, worded as the planner path words it, leaking nothing',
      async (target) => {
        const o = await producer.run(h, target, 'analyst');
        expect(o.status).toBe('error');
        expect(o.errors.map((e) => e.error_code)).toEqual([
          target === 'table' ? 'TABLE_DENIED' : 'COLUMN_DENIED',
        ]);
        expect(o.errors[0]!.message).toMatch(REFUSAL_SHAPE[target]);
        for (const m of DENIED_MARKERS[target]) expect(o.text).not.toContain(m);
        // The SQL of the refused plan is never shown: it was never compiled.
        expect(o.sql).toBeNull();
        if (producer.verifiedId) expect(o.text).not.toContain(producer.verifiedId(target));
      },
    );
  });

  it('shows the planner no verified query the role may not run as an example', async () => {
    const plannerPrompt = async (role: Role) => {
      fake.reset();
      const model = new PipelineModel(fake)
        .on('match_verified_query', { json: { matches: false, params: {} } })
        .on('sql_draft', { json: { sql: null, unanswerable_reason: 'no' } });
      await ask({ app: h.app, model }, 'Tell me the total payroll of the whole company', role);
      return model.requestsOf('sql_draft').map(promptText).join('\n');
    };
    // The example is there for a role that may run it, so its absence below means something.
    expect(await plannerPrompt('admin')).toContain(DENIED_SQL.table);
    expect(await plannerPrompt('analyst')).not.toContain(DENIED_SQL.table);
  });

  it('names only the verified queries the role may run when an id is unknown', async () => {
    const unknown = async (role: Role) =>
      JSON.stringify(
        await (await mcp(h, role)).callTool({ name: 'run_verified_query', arguments: { id: 'nope' } }),
      );
    expect(await unknown('admin')).toContain('payroll_total');
    const text = await unknown('analyst');
    expect(text).toContain('NOT_FOUND');
    for (const id of ['payroll_total', 'salary_of', 'customer_emails', 'email_of'])
      expect(text).not.toContain(id);
  });

  it('lists to MCP only the verified queries the role may run', async () => {
    const listed = async (role: Role) =>
      (
        (await (
          await mcp(h, role)
        ).callTool({ name: 'list_verified_queries', arguments: {} })) as unknown as {
          structuredContent: { verified_queries: { id: string }[] };
        }
      ).structuredContent.verified_queries.map((v) => v.id);
    expect((await listed('admin')).sort()).toEqual([
      'customer_emails',
      'email_of',
      'payroll_total',
      'salary_of',
    ]);
    expect(await listed('analyst')).toEqual([]);
  });
});

/** Plan sources that src/ sets anywhere (`planSource = 'x'` or `planSource: 'x'`). */
function sourcesSetInSrc(): Set<string> {
  const root = join(__dirname, '..', '..', 'src');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const full = join(dir, n);
      return statSync(full).isDirectory() ? walk(full) : n.endsWith('.ts') ? [full] : [];
    });
  const found = new Set<string>();
  for (const file of walk(root))
    for (const m of readFileSync(file, 'utf8').matchAll(/planSource\s*[:=]\s*'(\w+)'/g)) found.add(m[1]!);
  return found;
}

it('covers every plan source the service produces, and only sources nothing produces are empty', () => {
  const set = sourcesSetInSrc();
  // The scan reads real assignments (the planner's, the cache's, the verified resolver's).
  expect([...set].sort()).toEqual(expect.arrayContaining(['cache', 'llm', 'verified']));
  for (const [source, producers] of Object.entries(PRODUCERS))
    expect({ source, covered: producers.length > 0 }).toEqual({ source, covered: set.has(source) });
  for (const source of set) expect(Object.keys(PRODUCERS)).toContain(source);
});

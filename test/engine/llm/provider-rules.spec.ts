/**
 * Requests as the providers' published rules want them (issue 14, item 1), checked on the bodies
 * the real SDKs send to the fake server, and every schema the service sends checked against
 * OpenAI's strict-mode rules (the SDK's own strict-schema helper must leave each one unchanged).
 */
import { toStrictJsonSchema } from 'openai/lib/transform';
import { SecretManager } from '../../../src/config/secrets';
import { LlmService } from '../../../src/engine/llm/llm-service';
import { acceptsJsonSchemaOutput } from '../../../src/engine/llm/providers/anthropic-wire';
import { strictSchemaProblems } from '../../../src/engine/llm/providers/openai-strict';
import { ROUTE_SCHEMA } from '../../../src/engine/run/prompts/router';
import { decompositionSchema } from '../../../src/engine/run/prompts/decomposer';
import { PLANNER_OUTPUT_SCHEMA } from '../../../src/engine/run/prompts/planner-plan';
import { SQL_DRAFT_SCHEMA } from '../../../src/engine/run/prompts/planner-sql-draft';
import { verifiedMatchSchema } from '../../../src/engine/run/prompts/verified-match';
import { FakeModelServer } from '../../support/fake-model';

const MATCH_SCHEMA = verifiedMatchSchema({
  id: 'v',
  datasource_id: 'shop',
  question: 'How many orders came from a country?',
  sql: 'SELECT 1',
  params: {
    country: { type: 'string', description: 'as stored' },
    year: { type: 'integer' },
    since: { type: 'date' },
    paid: { type: 'boolean' },
  },
});

const SENT: Record<string, Record<string, unknown>> = {
  route_question: ROUTE_SCHEMA,
  decompose_question: decompositionSchema(['shop', 'hr']),
  query_plan: PLANNER_OUTPUT_SCHEMA,
  sql_draft: SQL_DRAFT_SCHEMA,
  match_verified_query: MATCH_SCHEMA,
};

describe.each(Object.entries(SENT))('the %s schema', (_name, schema) => {
  it('keeps every OpenAI strict-mode rule', () => {
    expect(strictSchemaProblems(schema)).toEqual([]);
  });
  it("is left unchanged by the openai SDK's strict-schema helper", () => {
    expect(toStrictJsonSchema(structuredClone(schema) as never)).toEqual(schema);
  });
});

it('the strict check names what strict mode would refuse', () => {
  expect(
    strictSchemaProblems({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'object', properties: {} } },
      required: ['a'],
    }),
  ).toEqual([
    ': additionalProperties must be false',
    '/properties/b: every property must be required',
    '/properties/b: additionalProperties must be false',
  ]);
  expect(strictSchemaProblems({ anyOf: [{ type: 'object' }] })[0]).toMatch(/root must be an object/);
});

it("Anthropic's JSON-schema outputs are used only for schemas they take: no recursion, few unions", () => {
  expect(acceptsJsonSchemaOutput(SQL_DRAFT_SCHEMA)).toBe(true);
  expect(acceptsJsonSchemaOutput(PLANNER_OUTPUT_SCHEMA)).toBe(false);
});

describe('request bodies', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await FakeModelServer.start();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const ask = async (llm: Record<string, unknown>, schema: Record<string, unknown>) => {
    const service = new LlmService({ llm, secrets: new SecretManager({}) });
    const set = service.acquire();
    try {
      await set.structured('default', {
        system: 'Answer.',
        messages: [{ role: 'user', content: 'Question: how many?' }],
        schema,
        schemaName: 'sql_draft',
      });
    } finally {
      service.release(set);
      await service.close();
    }
    return fake.requests.at(-1)!.body;
  };
  const openai = (structured_output: string) => ({
    provider: 'openai',
    model: 'gpt-4.1-mini',
    api_key: 'sk-test',
    base_url: fake.openaiBaseUrl,
    structured_output,
  });
  const anthropic = (structured_output: string) => ({
    provider: 'anthropic',
    model: 'claude-test-model',
    api_key: 'sk-ant-test',
    base_url: fake.anthropicBaseUrl,
    structured_output,
  });
  const draft = { sql: 'SELECT 1', unanswerable_reason: null };

  it('OpenAI tool calling: a strict function tool, forced, and no parallel tool calls', async () => {
    fake.reply({ json: draft });
    const body = await ask(openai('tool_calling'), SQL_DRAFT_SCHEMA);
    expect(body.tools[0].function).toMatchObject({ name: 'sql_draft', strict: true });
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'sql_draft' } });
    expect(body.parallel_tool_calls).toBe(false);
  });

  it('OpenAI json_schema response format is strict', async () => {
    fake.reply({ json: draft });
    const body = await ask(openai('json_schema'), SQL_DRAFT_SCHEMA);
    expect(body.response_format.json_schema).toMatchObject({ name: 'sql_draft', strict: true });
    expect(body.tools).toBeUndefined();
  });

  it('Anthropic: no sampling parameter by default, the cache breakpoint closing the system prompt', async () => {
    fake.reply({ json: draft });
    const body = await ask(anthropic('tool_calling'), SQL_DRAFT_SCHEMA);
    for (const p of ['temperature', 'top_p', 'top_k']) expect(body).not.toHaveProperty(p);
    expect(body.system.at(-1)).toMatchObject({ type: 'text', cache_control: { type: 'ephemeral' } });
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'sql_draft' });
  });

  it('Anthropic json_schema: the small schema as an output format, the recursive plan schema as a tool', async () => {
    fake.reply({ json: draft });
    const small = await ask(anthropic('json_schema'), SQL_DRAFT_SCHEMA);
    expect(small.output_config.format).toMatchObject({ type: 'json_schema' });
    expect(small.tools).toBeUndefined();
    fake.reply({ json: { plan: null, unanswerable_reason: 'test' } });
    const plan = await ask(anthropic('json_schema'), PLANNER_OUTPUT_SCHEMA);
    expect(plan.output_config).toBeUndefined();
    expect(plan.tools[0].name).toBe('sql_draft');
  });

  it('Anthropic: an explicit temperature is sent, and a 400 about it says to set temperature: null', async () => {
    fake.reply({ fail: 'temperature' });
    const service = new LlmService({
      llm: { ...anthropic('tool_calling'), temperature: 0.2 },
      secrets: new SecretManager({}),
    });
    const set = service.acquire();
    const failure = await set
      .structured('default', {
        system: 'Answer.',
        messages: [{ role: 'user', content: 'Question: how many?' }],
        schema: SQL_DRAFT_SCHEMA,
        schemaName: 'sql_draft',
      })
      .catch((e: unknown) => e as { code: string; message: string });
    service.release(set);
    await service.close();
    expect(fake.requests.at(-1)!.body.temperature).toBe(0.2);
    expect(failure).toMatchObject({ code: 'PROVIDER_TEMPERATURE_REJECTED' });
    expect((failure as { message: string }).message).toMatch(/temperature: null/);
  });
});

/**
 * The JSON Schema given to the model: generated from ast.ts, committed, and accepted by both
 * model wires' structured-output modes (OpenAI strict json_schema, Anthropic tool input_schema).
 */
import Anthropic from '@anthropic-ai/sdk';
import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { compilePlan, PLAN_JSON_SCHEMA, validatePlan } from '../../../src/engine/plan';
import * as b from '../../../src/engine/plan/build';
import { SCHEMA_FILE, TYPES_FILE } from '../../../src/engine/plan/generate';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { FakeModelServer } from '../../support/fake-model';
import { SHOP } from '../../support/plan-fixtures';

type Json = Record<string, any>;

/** Every rule of OpenAI's strict mode that a schema can break, checked node by node. */
function strictModeViolations(schema: Json): string[] {
  const out: string[] = [];
  const allowed = new Set([
    'type',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'anyOf',
    'enum',
    'description',
    '$ref',
    '$defs',
    '$schema',
    'title',
  ]);
  const visit = (n: Json, path: string) => {
    for (const k of Object.keys(n)) if (!allowed.has(k)) out.push(`${path}: keyword ${k}`);
    if (n.$ref && !String(n.$ref).startsWith('#/$defs/')) out.push(`${path}: non-local $ref`);
    if (n.$ref && !schema.$defs[String(n.$ref).slice(8)]) out.push(`${path}: dangling $ref`);
    if (n.type === 'object') {
      if (n.additionalProperties !== false) out.push(`${path}: open object`);
      const keys = Object.keys(n.properties ?? {}).sort();
      if (JSON.stringify([...(n.required ?? [])].sort()) !== JSON.stringify(keys))
        out.push(`${path}: not every property required`);
      for (const [k, v] of Object.entries(n.properties ?? {})) visit(v as Json, `${path}/${k}`);
    }
    if (n.items) visit(n.items, `${path}[]`);
    for (const [i, m] of (n.anyOf ?? []).entries()) visit(m as Json, `${path}|${i}`);
  };
  visit({ ...schema, $defs: undefined }, '#');
  for (const [name, def] of Object.entries(schema.$defs as Json)) visit(def as Json, `#/$defs/${name}`);
  if (schema.type !== 'object' || schema.anyOf) out.push('root must be an object, not a union');
  return out.filter((x) => !x.includes('keyword $defs'));
}

const samplePlan = b.query(
  b.select({
    columns: [b.col('country'), b.item(b.countStar(), 'n')],
    from: b.table('customers'),
    where: b.like(b.col('name'), b.lit('A%')),
    groupBy: [b.col('country')],
  }),
  { orderBy: [b.order(b.col('n'), 'desc')], limit: 10 },
);

describe('plan JSON Schema', () => {
  it('the committed schema and types are what ast.ts generates', () => {
    // Prettier (which formats the files) needs ESM dynamic import, so the check runs in its own process.
    const root = join(__dirname, '../../..');
    expect(() =>
      execFileSync(
        process.execPath,
        ['-r', '@swc-node/register', 'src/engine/plan/write-generated.ts', '--check'],
        { cwd: root, stdio: 'pipe' },
      ),
    ).not.toThrow();
    expect(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))).toEqual(PLAN_JSON_SCHEMA);
    expect(readFileSync(TYPES_FILE, 'utf8')).toContain('export interface Query {');
  });

  it('ajv compiles it; a built plan validates and a write statement cannot', () => {
    const validate = new Ajv({ strict: false }).compile(PLAN_JSON_SCHEMA);
    expect(validate(JSON.parse(JSON.stringify(samplePlan)))).toBe(true);
    expect(validate({ kind: 'insert', table: 't', values: [] })).toBe(false);
    const body = JSON.parse(JSON.stringify(samplePlan));
    body.body.kind = 'update';
    expect(validate(body)).toBe(false);
  });

  it('fits OpenAI strict json_schema and Anthropic tool input_schema constraints', () => {
    expect(strictModeViolations(PLAN_JSON_SCHEMA as Json)).toEqual([]);
  });

  describe('through both wires (real SDKs, fake server)', () => {
    let fake: FakeModelServer;
    beforeAll(async () => {
      fake = await FakeModelServer.start();
    });
    afterAll(async () => {
      await fake.close();
    });

    it('OpenAI response_format json_schema strict: the schema is sent and the plan comes back usable', async () => {
      fake.reply({ json: samplePlan });
      const client = new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseUrl, maxRetries: 0 });
      const res = await client.chat.completions.create({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'customers per country' }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'query_plan', strict: true, schema: PLAN_JSON_SCHEMA },
        },
      });
      expect(fake.requests.at(-1)!.body.response_format.json_schema.schema).toEqual(PLAN_JSON_SCHEMA);
      const plan = JSON.parse(res.choices[0]!.message.content!);
      expect(validatePlan(plan, SHOP, { datasourceId: 'shop' }).ok).toBe(true);
      expect(compilePlan(plan, 'sqlite', { schema: SHOP }).sql).toContain('GROUP BY "country"');
    });

    it('Anthropic tool input_schema: the schema is sent and the tool input is a plan', async () => {
      fake.reply({ json: samplePlan });
      const client = new Anthropic({ apiKey: 'test', baseURL: fake.anthropicBaseUrl, maxRetries: 0 });
      const res = await client.messages.create({
        model: 'claude-test',
        max_tokens: 1000,
        messages: [{ role: 'user', content: 'customers per country' }],
        tools: [{ name: 'query_plan', description: 'The query plan', input_schema: PLAN_JSON_SCHEMA as any }],
        tool_choice: { type: 'tool', name: 'query_plan' },
      });
      expect(fake.requests.at(-1)!.body.tools[0].input_schema).toEqual(PLAN_JSON_SCHEMA);
      const block = res.content.find((c) => c.type === 'tool_use');
      expect(
        block && block.type === 'tool_use' && validatePlan(block.input, SHOP, { datasourceId: 'shop' }).ok,
      ).toBe(true);
    });
  });
});

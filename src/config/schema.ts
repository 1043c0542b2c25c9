/**
 * The configuration file's schema: one TypeBox definition gives both the TypeScript types and the
 * JSON Schema that ajv checks the file against. Every object is closed (`additionalProperties:
 * false`), so an unknown key is an error that proposes the closest valid key. A field that may hold
 * a secret reference (`${env:NAME}`, `${file:/path}`) is marked with `secret: true`; a reference in
 * any other field is an error.
 */
import { Type, type Static, type TSchema, type TProperties, type ObjectOptions } from '@sinclair/typebox';

const Closed = <T extends TProperties>(props: T, options: ObjectOptions = {}) =>
  Type.Object(props, { additionalProperties: false, ...options });
const Secret = (options: Record<string, unknown> = {}) => Type.String({ secret: true, ...options });
const Id = (description: string) =>
  Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: `${description} (letters, digits, _ and -)` });
const StringList = () => Type.Array(Type.String());

export const ConnectionSchema = Closed({
  path: Type.Optional(Type.String({ description: 'File path (duckdb, sqlite)' })),
  demo: Type.Optional(
    Type.Boolean({
      description: 'duckdb only: build the demo database at `path` when it is missing (default false)',
    }),
  ),
  url: Type.Optional(Secret({ description: 'Connection URL (postgres, mysql); may hold a password' })),
  host: Type.Optional(Type.String()),
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  user: Type.Optional(Type.String()),
  password: Type.Optional(Secret()),
  database: Type.Optional(Type.String()),
  ssl: Type.Optional(Type.Boolean()),
  pool_max: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Pool size (default 4)' })),
});

export const LimitsSchema = Closed({
  row_cap: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Most rows a sub-query returns (default 10000)' }),
  ),
  timeout_s: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, description: 'Statement timeout (default 30)' }),
  ),
});

export const DatasourceConfigSchema = Closed({
  id: Id('Datasource id'),
  type: Type.Union([
    Type.Literal('duckdb'),
    Type.Literal('sqlite'),
    Type.Literal('postgres'),
    Type.Literal('mysql'),
  ]),
  connection: ConnectionSchema,
  description: Type.Optional(Type.String()),
  limits: Type.Optional(LimitsSchema),
  preferred_tables: Type.Optional(StringList()),
  sample_questions: Type.Optional(StringList()),
  instructions: Type.Optional(
    Type.String({
      description:
        'Business rules the planner and the decomposer follow, as free text ("revenue excludes cancelled orders"); shown first in their knowledge budget',
    }),
  ),
  glossary: Type.Optional(
    Type.Record(Type.String({ pattern: '\\S' }), Type.String({ minLength: 1 }), {
      // A term is a word or a phrase: a blank key names nothing a question could say.
      additionalProperties: false,
      description:
        'Term -> its meaning here: a definition in words, or a SQL expression over the schema; the terms a question names are shown first',
    }),
  ),
  required: Type.Optional(
    Type.Boolean({ description: 'A required datasource that fails stops start-up (default false)' }),
  ),
});

const AgentFields = {
  provider: Type.String({ minLength: 1 }),
  model: Type.String({ minLength: 1 }),
  temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
  api_key: Type.Optional(Type.Union([Secret(), Type.Null()])),
  base_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  structured_output: Type.Optional(
    Type.Union([
      Type.Literal('tool_calling'),
      Type.Literal('json_schema'),
      Type.Literal('json_mode'),
      Type.Null(),
    ]),
  ),
  parse_retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  planner_format: Type.Optional(
    Type.Union([Type.Literal('sql'), Type.Literal('plan'), Type.Null()], {
      description:
        'How the planner answers: a SQL draft the service imports into a plan (default), or the plan itself',
    }),
  ),
  max_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  timeout_s: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
  max_retries: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  headers: Type.Optional(Type.Record(Type.String(), Secret())),
  name: Type.Optional(Type.String()),
  // Ollama only (provider `ollama` / `local_server`): which wire, the context cap, keep_alive.
  wire: Type.Optional(
    Type.Union([Type.Literal('native'), Type.Literal('openai'), Type.Null()], {
      description:
        "ollama only: 'native' (/api/chat; default for provider ollama) or 'openai' (/v1; default for local_server)",
    }),
  ),
  num_ctx_max: Type.Optional(
    Type.Union([Type.Integer({ minimum: 256, maximum: 1_048_576 }), Type.Null()], {
      description:
        'ollama native wire only: the largest context (num_ctx) a request asks for (default 16384)',
    }),
  ),
  keep_alive: Type.Optional(
    Type.Union(
      [
        Type.String({ pattern: '^(0|-?([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+)$' }),
        Type.Number(),
        Type.Null(),
      ],
      {
        description:
          "ollama native wire only: how long the server keeps the model loaded after a request ('30m' by default; seconds as a number; negative: always; null: the server's own default)",
      },
    ),
  ),
};

/** A per-agent override: any field of the default agent, all optional. */
export const AgentOverrideSchema = Closed(
  Object.fromEntries(Object.entries(AgentFields).map(([k, v]) => [k, Type.Optional(v as TSchema)])) as {
    [K in keyof typeof AgentFields]: any;
  },
);

/** Extra or corrected model prices, USD per million tokens (shown with `source: config`). */
export const LlmPriceRowSchema = Closed({
  input: Type.Number({ minimum: 0 }),
  output: Type.Number({ minimum: 0 }),
  cached_input: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
  cache_write: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])),
});

export const LlmSectionSchema = Closed({
  ...AgentFields,
  agents: Type.Optional(Type.Record(Type.String(), AgentOverrideSchema)),
  prices: Type.Optional(Type.Record(Type.String(), LlmPriceRowSchema)),
});

export const EmbeddingsSchema = Closed({
  provider: Type.Union([Type.Literal('local'), Type.Literal('openai'), Type.Literal('alpha')]),
  model: Type.Optional(Type.String()),
  api_key: Type.Optional(Type.Union([Secret(), Type.Null()])),
  base_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  batch_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 2048 })),
});

const StoreSchema = Closed({
  path: Type.Optional(Type.String()),
  max_age_days: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
});

export const StorageSchema = Closed({
  results: Type.Optional(StoreSchema),
  traces: Type.Optional(StoreSchema),
  index: Type.Optional(
    Closed({
      path: Type.Optional(Type.String()),
      namespace: Type.Optional(Type.String()),
      /** Build the index in the background at start when it is missing or stale (off by default). */
      build_on_start: Type.Optional(Type.Boolean()),
    }),
  ),
});

const AllowDeny = Closed({ allow: Type.Optional(StringList()), deny: Type.Optional(StringList()) });

export const RolePolicySchema = Closed({
  datasources: Type.Optional(StringList()),
  tables: Type.Optional(AllowDeny),
  columns: Type.Optional(AllowDeny),
});

export const PoliciesSchema = Closed({
  admin_roles: Type.Optional(StringList()),
  roles: Type.Optional(Type.Record(Type.String(), RolePolicySchema)),
});

export const ApiSchema = Closed({
  role_header: Type.Optional(Type.String({ minLength: 1 })),
  role: Type.Optional(Type.String({ minLength: 1 })),
  trust_body_role: Type.Optional(Type.Boolean()),
  cors_origins: Type.Optional(Type.Array(Type.String({ pattern: '^https?://[^/\\s]+$' }))),
});

const ParamSchema = Closed({
  type: Type.Union([
    Type.Literal('string'),
    Type.Literal('integer'),
    Type.Literal('number'),
    Type.Literal('boolean'),
    Type.Literal('date'),
  ]),
  description: Type.Optional(Type.String()),
});

export const VerifiedQuerySchema = Closed({
  id: Id('Verified query id'),
  datasource_id: Type.String(),
  question: Type.String({ minLength: 1 }),
  paraphrases: Type.Optional(StringList()),
  sql: Type.String({ minLength: 1 }),
  params: Type.Optional(Type.Record(Type.String(), ParamSchema)),
});

export const PipelineSettingsSchema = Closed({
  max_cost_usd: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
  max_model_calls: Type.Optional(Type.Integer({ minimum: 1 })),
  max_retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  sample_rows: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  max_sub_queries: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
  plan_cache_size: Type.Optional(Type.Integer({ minimum: 0 })),
  decompose: Type.Optional(
    Type.Union([Type.Literal('auto'), Type.Literal('always')], {
      description:
        'auto (default): the decomposer is asked only when the question may hold several intents or several datasources fit',
    }),
  ),
  verified_direct_threshold: Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description:
        'Similarity (0..1) from which a verified query answers with no model call; null: the model always confirms',
    }),
  ),
});

export const HookSchema = Closed({
  module: Type.String({ description: 'Path of a CommonJS module exporting a hook' }),
  scope: Type.Optional(Type.Union([Type.Literal('run'), Type.Literal('sub_query')])),
});

export const ConfigSchema = Closed({
  tenant_id: Type.Optional(Id('Tenant id')),
  api: Type.Optional(ApiSchema),
  policies: Type.Optional(PoliciesSchema),
  datasources: Type.Optional(Type.Array(DatasourceConfigSchema)),
  verified_queries: Type.Optional(Type.Array(VerifiedQuerySchema)),
  llm: Type.Optional(LlmSectionSchema),
  embeddings: Type.Optional(EmbeddingsSchema),
  storage: Type.Optional(StorageSchema),
  settings: Type.Optional(Closed({ pipeline: Type.Optional(PipelineSettingsSchema) })),
  hooks: Type.Optional(Type.Array(HookSchema)),
});

export type ConnectionConfig = Static<typeof ConnectionSchema>;
export type DatasourceConfig = Static<typeof DatasourceConfigSchema>;
export type LlmSection = Static<typeof LlmSectionSchema>;
export type AgentOverride = Partial<Omit<LlmSection, 'agents' | 'prices'>>;
export type EmbeddingsConfig = Static<typeof EmbeddingsSchema>;
export type StorageConfig = Static<typeof StorageSchema>;
export type PoliciesConfig = Static<typeof PoliciesSchema>;
export type RolePolicy = Static<typeof RolePolicySchema>;
export type ApiConfig = Static<typeof ApiSchema>;
export type VerifiedQueryConfig = Static<typeof VerifiedQuerySchema>;
export type PipelineSettings = Static<typeof PipelineSettingsSchema>;
export type HookConfig = Static<typeof HookSchema>;
export type RawConfig = Static<typeof ConfigSchema>;

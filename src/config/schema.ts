/**
 * The configuration file's schema: one TypeBox definition gives the JSON Schema ajv checks the file
 * against, the TypeScript types, and the defaults (`Default(...)`: filled by resolveDefaults, typed
 * by `Resolved`). Every object is closed (`additionalProperties: false`), so an unknown key is an
 * error that proposes the closest valid key. A field that may hold a secret reference
 * (`${env:NAME}`, `${file:/path}`) is marked with `secret: true`; a reference in any other field is
 * an error.
 */
import { Type, type Static, type TOptional, type TSchema } from '@sinclair/typebox';
import { URL_RULE } from './url-rule';
import { AGENTS } from '../engine/run/agents';
import {
  Closed,
  Default,
  DefaultNull,
  ForeignKey,
  KeyedUnion,
  PATTERN_HINT,
  Secret,
  Url,
  type Resolved,
} from './schema-kit';

const Id = (description: string) =>
  Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: `${description} (letters, digits, _ and -)` });
const StringList = () => Type.Array(Type.String());

/** Statements of one datasource at once (connections for postgres/mysql, runners for sqlite). */
export const DEFAULT_POOL_MAX = 4;
export const DEFAULT_ROW_CAP = 10_000;
export const DEFAULT_TIMEOUT_S = 30;
export const DEFAULT_MAX_AGE_DAYS = 30;
export const DEFAULT_INDEX_PATH = './data/index';
/**
 * From this similarity between a question and a verified question (the index embedder's cosine),
 * the verified query answers with no model call when its parameters can be filled without one.
 */
export const DEFAULT_VERIFIED_DIRECT_THRESHOLD = 0.9;

/** Every key a `connection` may have, whatever the datasource type. */
const CONNECTION_KEYS = {
  path: Type.Optional(Type.String({ description: 'File path of the database (duckdb, sqlite)' })),
  demo: Type.Optional(
    Type.Boolean({
      description: 'duckdb: build the demo database at `path` when it is missing (default false)',
    }),
  ),
  url: Type.Optional(Secret({ description: 'Connection URL (postgres, mysql); may hold a password' })),
  host: Type.Optional(Type.String()),
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  user: Type.Optional(Type.String()),
  password: Type.Optional(Secret()),
  database: Type.Optional(Type.String()),
  ssl: Type.Optional(Type.Boolean()),
  pool_max: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, description: `Pool size (default ${DEFAULT_POOL_MAX})` }),
  ),
};
type ConnectionKeys = typeof CONNECTION_KEYS;

/**
 * The `connection` of one datasource type: its own keys (`refined`: a stricter schema for some of
 * them), and every other type's key refused by name.
 */
const ConnectionOf = <K extends keyof ConnectionKeys>(
  type: string,
  own: readonly K[],
  refined: Partial<Record<K, TSchema>> = {},
) =>
  Closed(
    Object.fromEntries(
      Object.entries(CONNECTION_KEYS).map(([key, schema]) => [
        key,
        own.includes(key as K) ? (refined[key as K] ?? schema) : ForeignKey(`a ${type} datasource`),
      ]),
    ) as { [P in keyof ConnectionKeys]: P extends K ? ConnectionKeys[P] : ReturnType<typeof ForeignKey> },
  );

const ServerUrl = (schemes: string[], example: string) =>
  Type.Optional(
    Secret({ [URL_RULE]: { schemes, example }, description: 'Connection URL; may hold a password' }),
  );

export const DuckdbConnectionSchema = ConnectionOf('duckdb', ['path', 'demo', 'pool_max']);
export const SqliteConnectionSchema = ConnectionOf('sqlite', ['path', 'pool_max']);
const SERVER_KEYS = ['url', 'host', 'port', 'user', 'password', 'database', 'ssl', 'pool_max'] as const;
export const PostgresConnectionSchema = ConnectionOf('postgres', SERVER_KEYS, {
  url: ServerUrl(['postgres', 'postgresql'], 'postgres://app@db.example.com:5432/shop'),
});
export const MysqlConnectionSchema = ConnectionOf('mysql', SERVER_KEYS, {
  url: ServerUrl(['mysql', 'mariadb'], 'mysql://app@db.example.com:3306/shop'),
});

export const LimitsSchema = Closed({
  row_cap: Type.Optional(
    Type.Integer({ minimum: 1, description: `Most rows a sub-query returns (default ${DEFAULT_ROW_CAP})` }),
  ),
  timeout_s: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, description: `Statement timeout (default ${DEFAULT_TIMEOUT_S})` }),
  ),
});

/** One datasource: the keys every type shares, its type and that type's connection. */
const DatasourceOf = <T extends TSchema, C extends TSchema>(type: T, connection: C) =>
  Closed({
    id: Id('Datasource id'),
    type,
    connection,
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

export const DatasourceConfigSchema = KeyedUnion('type', [
  DatasourceOf(Type.Literal('duckdb'), DuckdbConnectionSchema),
  DatasourceOf(Type.Literal('sqlite'), SqliteConnectionSchema),
  DatasourceOf(Type.Literal('postgres'), PostgresConnectionSchema),
  DatasourceOf(Type.Literal('mysql'), MysqlConnectionSchema),
]);

/**
 * The shape code handles any datasource by: every connection key readable, with the type any
 * datasource type allows there (the schema above checks each type's own keys). Used for types only.
 */
export const AnyDatasourceSchema = DatasourceOf(
  Type.Union(DatasourceConfigSchema.anyOf.map((branch) => branch.properties.type)),
  Closed(CONNECTION_KEYS),
);

/** An endpoint of a model or embeddings API. */
const BaseUrl = () =>
  Type.Union([Url({ schemes: ['http', 'https'], example: 'http://127.0.0.1:11434/v1' }), Type.Null()]);

const AgentFields = {
  provider: Type.String({ minLength: 1 }),
  model: Type.String({ minLength: 1 }),
  temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
  api_key: Type.Optional(Type.Union([Secret(), Type.Null()])),
  base_url: Type.Optional(BaseUrl()),
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
  /** Keyed by the steps that call a model (the run's agent names): any other name would do nothing. */
  agents: Type.Optional(
    Closed(
      Object.fromEntries(Object.values(AGENTS).map((name) => [name, Type.Optional(AgentOverrideSchema)])) as {
        [K in AgentName]: TOptional<typeof AgentOverrideSchema>;
      },
    ),
  ),
  prices: Type.Optional(Type.Record(Type.String(), LlmPriceRowSchema)),
});

export const EmbeddingsSchema = Closed({
  provider: Type.Union([Type.Literal('local'), Type.Literal('openai'), Type.Literal('alpha')]),
  model: Type.Optional(Type.String()),
  api_key: Type.Optional(Type.Union([Secret(), Type.Null()])),
  base_url: Type.Optional(BaseUrl()),
  batch_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 2048 })),
});

const StoreSchema = (path: string) =>
  Closed({
    path: Default(Type.String(), path),
    max_age_days: Default(Type.Number({ exclusiveMinimum: 0 }), DEFAULT_MAX_AGE_DAYS),
  });

export const StorageSchema = Closed({
  results: Default(StoreSchema('./data/results'), {}),
  traces: Default(StoreSchema('./data/traces'), {}),
  /** Feedback and verified queries added at runtime: `<path>/<tenant>/{feedback,verified-queries}/`. */
  knowledge: Default(Closed({ path: Default(Type.String(), './data/knowledge') }), {}),
  index: Default(
    Closed({
      path: Default(Type.String(), DEFAULT_INDEX_PATH),
      namespace: Default(Type.String(), 'default'),
      /** Build the index in the background at start when it is missing or stale (off by default). */
      build_on_start: Default(Type.Boolean(), false),
    }),
    {},
  ),
});

const AllowDeny = Closed({ allow: Type.Optional(StringList()), deny: Type.Optional(StringList()) });

/** What a masked value shows when the role's `columns.mask_with` is not set. */
export const DEFAULT_MASK_WITH = '***';

const ColumnRules = Closed({
  allow: Type.Optional(StringList()),
  deny: Type.Optional(StringList()),
  mask: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Columns this role reads masked (`<datasource>.<table>.<column>`): selectable, never usable to filter, join, group or sort',
    }),
  ),
  mask_keep: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 64,
      description: 'Characters a masked value keeps at its end (default 0: only `mask_with` is shown)',
    }),
  ),
  mask_with: Type.Optional(
    Type.String({
      maxLength: 64,
      description: `What replaces a masked value (default '${DEFAULT_MASK_WITH}')`,
    }),
  ),
});

/** What the answer model is given of a result: rows, only the aggregates the plan computes, or nothing. */
export const MODEL_SEES = ['rows', 'aggregates', 'none'] as const;

export const RolePolicySchema = Closed({
  datasources: Type.Optional(StringList()),
  tables: Type.Optional(AllowDeny),
  columns: Type.Optional(ColumnRules),
  rows: Type.Optional(
    Type.Record(Type.String(), Type.String({ minLength: 1 }), {
      description:
        "Row filters: `<datasource>.<table>` -> a boolean SQL expression over that table's columns, which may use :user.<attribute>",
    }),
  ),
  model_sees: Type.Optional(
    Type.Union(
      MODEL_SEES.map((v) => Type.Literal(v)),
      {
        description:
          'What the answer model receives of a result (default rows); the most restrictive role wins',
      },
    ),
  ),
});

export const PoliciesSchema = Closed({
  admin_roles: Default(StringList(), ['admin']),
  /** None: every role reads everything; with a roles section, an unlisted role reads nothing. */
  roles: DefaultNull(Type.Record(Type.String(), RolePolicySchema)),
});

/** A caller attribute's name, as `:user.<name>` spells it in a row filter. */
export const ATTRIBUTE_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';

export const ApiSchema = Closed({
  role_header: Type.Optional(Type.String({ minLength: 1 })),
  role: Type.Optional(Type.String({ minLength: 1 })),
  trust_body_role: Default(Type.Boolean(), false),
  attribute_header: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Header the trusted proxy sets with the caller's attributes for row filters: `key=value` pairs separated by `;`, values URL-encoded",
    }),
  ),
  attributes: Type.Optional(
    Type.Array(
      Type.String({
        pattern: ATTRIBUTE_NAME_PATTERN,
        [PATTERN_HINT]: 'must be a name of letters, digits and _',
      }),
      {
        description:
          'The caller attributes requests may carry (row filters may use only these); none by default',
      },
    ),
  ),
  event_attribute_values: Type.Optional(
    Type.Boolean({
      description: "`run.started` carries the attributes' values too (default false: names only)",
    }),
  ),
  cors_origins: Default(
    Type.Array(Url({ schemes: ['http', 'https'], origin: true, example: 'https://app.example.com' })),
    [],
  ),
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
  /** A value the parameter may take: `nl2sql eval` asks the question with it (see README, Evaluation). */
  example: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
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
  max_cost_usd: Default(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()]), null),
  max_model_calls: Default(Type.Integer({ minimum: 1 }), 20),
  max_retries: Default(Type.Integer({ minimum: 0, maximum: 10 }), 2),
  sample_rows: Default(Type.Integer({ minimum: 0, maximum: 1000 }), 20),
  max_sub_queries: Default(Type.Integer({ minimum: 1, maximum: 20 }), 4),
  plan_cache_size: Default(Type.Integer({ minimum: 0 }), 1000),
  decompose: Default(
    Type.Union([Type.Literal('auto'), Type.Literal('always')], {
      description:
        'auto (default): the decomposer is asked only when the question may hold several intents or several datasources fit',
    }),
    'auto',
  ),
  verified_direct_threshold: Default(
    Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description:
        'Similarity (0..1) from which a verified query answers with no model call; null: the model always confirms',
    }),
    DEFAULT_VERIFIED_DIRECT_THRESHOLD,
  ),
});

export const SecretsSchema = Closed({
  /**
   * The secret references a config sent at runtime (PUT /settings/llm, POST /datasource) may use,
   * written `env:NAME` (or `<provider>:<key>` of a registered secret provider). None by default: a
   * caller of those routes could otherwise send the server's environment to a host of its choice.
   * `file:` is never allowed.
   */
  runtime_allowed: Default(
    Type.Array(
      Type.String({
        pattern: '^[A-Za-z][A-Za-z0-9_]*:[^{}]+$',
        [PATTERN_HINT]: 'must be a reference without ${...}, e.g. env:SHOP_PG_PASSWORD',
      }),
    ),
    [],
  ),
});

export const HookSchema = Closed({
  module: Type.String({ description: 'Path of a CommonJS module exporting a hook' }),
  scope: Type.Optional(Type.Union([Type.Literal('run'), Type.Literal('sub_query')])),
});

export const ConfigSchema = Closed({
  tenant_id: Default(Id('Tenant id'), 'default'),
  api: Default(ApiSchema, {}),
  policies: Default(PoliciesSchema, {}),
  datasources: Default(Type.Array(DatasourceConfigSchema), []),
  verified_queries: Default(Type.Array(VerifiedQuerySchema), []),
  /** None: the engine uses the key-free default preset. */
  llm: DefaultNull(LlmSectionSchema),
  embeddings: Default(EmbeddingsSchema, { provider: 'local' }),
  storage: Default(StorageSchema, {}),
  settings: Default(Closed({ pipeline: Default(PipelineSettingsSchema, {}) }), {}),
  hooks: Default(Type.Array(HookSchema), []),
  secrets: Default(SecretsSchema, {}),
});

export type DatasourceConfig = Static<typeof AnyDatasourceSchema>;
export type DatasourceType = DatasourceConfig['type'];
export type ConnectionConfig = DatasourceConfig['connection'];
export type AgentName = (typeof AGENTS)[keyof typeof AGENTS];
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
export type SecretsConfig = Static<typeof SecretsSchema>;
/** What a config file holds (after its check): every key with a default may be missing. */
export type RawConfig = Static<typeof ConfigSchema>;
/** The configuration with every default filled (resolveDefaults). */
export type ResolvedConfig = Resolved<typeof ConfigSchema>;

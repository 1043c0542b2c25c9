/**
 * The layer rules of DESIGN.md, in one place, checked on the real module graph of src/ in
 * `npm test` (npm run lint:deps): who may import whom, which layer may open a database or call a
 * model, and which modules are the public door of a room.
 *
 * KNOWN_TO_FIX lists imports that break a rule today and are fixed outside this file's change
 * (each names its rule); the list only ever shrinks. A new violation fails at once.
 */

/** The run machinery (engine/pipeline, renamed engine/run). */
const RUN = '^src/engine/(pipeline|run)/';

const KNOWN_TO_FIX = {
  // The demo's id and sample questions reach the OpenAPI examples directly; they should come
  // through the engine's configuration.
  'api-not-to-demo': ['^src/api/query/query\\.examples\\.ts$'],
  'index-through-its-door': [],
};

const DRIVERS = '^node_modules/(knex|pg|mysql2|better-sqlite3)/';
const DUCKDB = '^node_modules/@duckdb/';
const MODEL_SDKS = '^node_modules/(openai|@anthropic-ai/sdk)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle makes load order matter and two modules one; break it by moving the shared part.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-not-to-api',
      severity: 'error',
      comment: 'The engine has no HTTP: it never imports the api layer, the app, the demo or the CLI.',
      from: { path: '^src/engine/' },
      to: { path: ['^src/api/', '^src/app\\.', '^src/main\\.ts$', '^src/demo/', '^src/cli/'] },
    },
    {
      name: 'api-not-to-demo',
      severity: 'error',
      comment: 'The demo database is wired by configuration only; the HTTP layer never imports it.',
      from: { path: '^src/api/', pathNot: KNOWN_TO_FIX['api-not-to-demo'] },
      to: { path: '^src/demo/' },
    },
    {
      name: 'plan-is-pure',
      severity: 'error',
      comment:
        'The plan layer (AST, walk, validator, compiler, importer) is plain TypeScript: no Nest, no driver, no run machinery.',
      from: { path: '^src/engine/plan/' },
      to: { path: ['^node_modules/@nestjs/', DRIVERS, DUCKDB, MODEL_SDKS, RUN, '^src/api/'] },
    },
    {
      name: 'plan-imports-only-its-inputs',
      severity: 'error',
      comment:
        'Besides itself, the plan layer reads only the error codes, the schema snapshot types and the role-policy config type, and a few pure libraries (write-generated.ts is the developer script that formats the generated files).',
      from: { path: '^src/engine/plan/', pathNot: '^src/engine/plan/write-generated\\.ts$' },
      to: {
        dependencyTypesNot: ['core'],
        pathNot: [
          '^src/engine/plan/',
          '^src/engine/errors/',
          '^src/engine/datasources/schema\\.ts$',
          '^src/config/schema\\.ts$',
          '^node_modules/(sql-parser-cst|@sinclair/typebox|ajv|fastest-levenshtein)/',
        ],
      },
    },
    {
      name: 'index-through-its-door',
      severity: 'error',
      comment: 'The schema index is used only through its public src/engine/index/index.ts.',
      from: { path: '^src/', pathNot: ['^src/engine/index/', ...KNOWN_TO_FIX['index-through-its-door']] },
      to: { path: '^src/engine/index/', pathNot: '^src/engine/index/index\\.ts$' },
    },
    {
      name: 'model-sdks-only-in-providers',
      severity: 'error',
      comment: 'Only engine/llm/providers talks to a model SDK; everything else goes through the LLM set.',
      from: { pathNot: '^src/engine/llm/providers/' },
      to: { path: MODEL_SDKS },
    },
    {
      name: 'drivers-only-in-datasources',
      severity: 'error',
      comment: 'Only engine/datasources opens database connections.',
      from: { pathNot: '^src/engine/datasources/' },
      to: { path: DRIVERS },
    },
    {
      name: 'duckdb-only-where-embedded',
      severity: 'error',
      comment:
        'DuckDB is a datasource engine and also the embedded engine of result artifacts (storage), the schema index and the demo generator (which writes the demo file, never a datasource connection).',
      from: {
        pathNot: [
          '^src/engine/datasources/',
          '^src/engine/storage/',
          '^src/engine/index/',
          '^src/demo/demo-database\\.ts$',
        ],
      },
      to: { path: DUCKDB },
    },
    {
      name: 'src-not-to-test-or-bench',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: ['^test/', '^bench/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

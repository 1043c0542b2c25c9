/**
 * The layer rules of DESIGN.md that are about the shape of the house, checked on the real module
 * graph in `npm test` (npm run lint:deps). The rules about who may import a model SDK or a database
 * driver are in test/architecture.spec.ts.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes load order matter and two modules one; break it by moving the shared part.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-not-to-api',
      severity: 'error',
      comment: 'The engine has no HTTP: it never imports the api layer or the app.',
      from: { path: '^src/engine/' },
      to: { path: ['^src/api/', '^src/app\\.', '^src/main\\.ts$', '^src/demo/', '^src/cli/'] },
    },
    {
      name: 'plan-is-pure',
      severity: 'error',
      comment: 'The plan layer (AST, validator, compiler, importer) imports nothing from Nest and no driver.',
      from: { path: '^src/engine/plan/' },
      to: { path: ['^node_modules/@nestjs/', '^node_modules/(knex|pg|mysql2|better-sqlite3|@duckdb)/'] },
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
    exclude: { path: 'node_modules' },
  },
};

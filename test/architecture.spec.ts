/**
 * The layer rules of DESIGN.md, checked on the import statements of every source file: the engine
 * never imports the HTTP layer; the plan layer is pure (no Nest, no driver); only
 * engine/llm/providers imports model SDKs; only engine/datasources imports database drivers
 * (DuckDB is also the embedded engine of result artifacts, of the schema index, and of the demo
 * database's generator).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = join(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const files = sourceFiles(join(ROOT, 'src')).map((f) => ({
  path: relative(ROOT, f).split(sep).join('/'),
  imports: [
    ...readFileSync(f, 'utf8').matchAll(
      /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|require\(['"]([^'"]+)['"]\)/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? ''),
}));

function violations(
  inScope: (path: string) => boolean,
  forbidden: (spec: string, path: string) => boolean,
): string[] {
  return files
    .filter((f) => inScope(f.path))
    .flatMap((f) => f.imports.filter((i) => forbidden(i, f.path)).map((i) => `${f.path} imports ${i}`));
}

const SDKS = ['openai', '@anthropic-ai/sdk'];

it('reads the import statements (the SDK imports of the wires are seen)', () => {
  const wire = files.find((f) => f.path === 'src/engine/llm/providers/openai-wire.ts');
  expect(wire?.imports).toContain('openai');
});
const DRIVERS = ['knex', 'pg', 'mysql2', 'better-sqlite3'];

it('finds the source files it checks', () => {
  expect(files.length).toBeGreaterThan(100);
});

it('the engine never imports the HTTP layer', () => {
  expect(
    violations(
      (p) => p.startsWith('src/engine/'),
      (i) => /(^|\/)api\//.test(i) || i.includes('app.module'),
    ),
  ).toEqual([]);
});

it('the plan layer imports nothing from Nest and no driver', () => {
  expect(
    violations(
      (p) => p.startsWith('src/engine/plan/'),
      (i) => i.startsWith('@nestjs/') || DRIVERS.includes(i) || i === '@duckdb/node-api',
    ),
  ).toEqual([]);
});

it('only engine/llm/providers imports model SDKs', () => {
  expect(
    violations(
      (p) => !p.startsWith('src/engine/llm/providers/'),
      (i) => SDKS.includes(i),
    ),
  ).toEqual([]);
});

it('only engine/datasources opens database connections', () => {
  expect(
    violations(
      (p) => !p.startsWith('src/engine/datasources/'),
      (i) => DRIVERS.includes(i),
    ),
  ).toEqual([]);
  const duckdbUsers = files
    .filter((f) => f.imports.includes('@duckdb/node-api'))
    .map((f) => f.path.split('/').slice(0, 3).join('/'));
  expect([...new Set(duckdbUsers)].sort()).toEqual([
    // The demo generator writes the demo database file; it is never a datasource connection.
    'src/demo/demo-database.ts',
    'src/engine/datasources',
    'src/engine/index',
    'src/engine/storage',
  ]);
});

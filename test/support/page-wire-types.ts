/**
 * The playground page's wire types (src/web/page/generated): generated from the OpenAPI snapshot
 * by @hey-api/openapi-ts, types only, and formatted as the house formats code. `npm run
 * openapi:write` writes them with the snapshot; test/contract/page-wire-types.spec.ts holds the
 * committed files equal to a fresh generation.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '..', '..');

export const PAGE_TYPES_DIR = join(ROOT, 'src', 'web', 'page', 'generated');

/** File name -> text, as the generator and Prettier make them from the document at `openapiPath`. */
export async function renderPageWireTypes(openapiPath: string): Promise<Map<string, string>> {
  const out = mkdtempSync(join(tmpdir(), 'nl2sql-page-types-'));
  try {
    // An absolute input path: a relative `a/b.json` is read as a Hey API registry shorthand (a download).
    await promisify(execFile)(process.execPath, [
      join(ROOT, 'node_modules', '@hey-api', 'openapi-ts', 'bin', 'run.js'),
      '--input',
      resolve(openapiPath),
      '--output',
      out,
      '--plugins',
      '@hey-api/typescript',
      '--silent',
      '--no-log-file',
    ]);
    // Prettier's CLI, not its API: the API loads its plugins by dynamic import, which Jest refuses.
    await promisify(execFile)(process.execPath, [
      join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs'),
      '--config',
      join(ROOT, '.prettierrc'),
      '--write',
      '--log-level',
      'warn',
      out,
    ]);
    const files = new Map<string, string>();
    for (const name of readdirSync(out)
      .filter((n) => n.endsWith('.ts'))
      .sort())
      files.set(name, readFileSync(join(out, name), 'utf8'));
    return files;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

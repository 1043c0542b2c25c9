/**
 * Writes plan.schema.json and types.generated.ts from ast.ts, formatted with the repository's
 * Prettier settings: `node -r @swc-node/register src/engine/plan/write-generated.ts`.
 * Development only (Prettier is a dev dependency); the service never loads this file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { SCHEMA_FILE, TYPES_FILE, buildPlanJsonSchema, buildPlanTypes } from './generate';

/** The two files as committed. */
export async function renderGeneratedFiles(): Promise<{ schema: string; types: string }> {
  const config = (await prettier.resolveConfig(TYPES_FILE)) ?? {};
  return {
    schema: await prettier.format(JSON.stringify(buildPlanJsonSchema()), { ...config, parser: 'json' }),
    types: await prettier.format(buildPlanTypes(), { ...config, parser: 'typescript' }),
  };
}

if (require.main === module) {
  // --check: exit 1 when a committed file differs from what ast.ts generates (used by a test).
  const check = process.argv.includes('--check');
  void renderGeneratedFiles().then(({ schema, types }) => {
    for (const [file, text] of [
      [SCHEMA_FILE, schema],
      [TYPES_FILE, types],
    ] as const) {
      if (!check) writeFileSync(file, text);
      else if (readFileSync(file, 'utf8') !== text) {
        console.error(`${file} is stale: run node -r @swc-node/register src/engine/plan/write-generated.ts`);
        process.exitCode = 1;
      }
    }
    if (!check) console.log(`wrote ${SCHEMA_FILE} and ${TYPES_FILE}`);
  });
}

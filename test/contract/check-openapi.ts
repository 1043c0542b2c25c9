/**
 * Validates and lints OpenAPI documents, run as a child process by openapi-lint.spec.ts (the
 * linter is an ES module that jest's CommonJS runtime cannot load; plain Node can).
 *   node -r @swc-node/register test/contract/check-openapi.ts <redocly.yaml> <document.json>...
 * Prints one JSON line per document: swagger-parser's verdict and Redocly's problems.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { lint, loadConfig } from '@redocly/openapi-core';

async function check(configPath: string, file: string) {
  let valid: true | string = true;
  try {
    // validate() also resolves every $ref, and fails on one that points nowhere.
    await SwaggerParser.validate(file);
  } catch (err) {
    valid = err instanceof Error ? err.message : String(err);
  }
  const config = await loadConfig({ configPath });
  const problems = (await lint({ ref: file, config })).map((p) => ({
    rule: p.ruleId,
    severity: p.severity,
    message: p.message,
    at: p.location[0]?.pointer ?? null,
  }));
  return { file, valid, problems };
}

async function main() {
  const [configPath, ...files] = process.argv.slice(2);
  for (const file of files) console.log(JSON.stringify(await check(configPath!, file)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

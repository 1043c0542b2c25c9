/**
 * The document passes a real validator (@apidevtools/swagger-parser: OpenAPI schema, every $ref
 * resolved) and Redocly's linter with its recommended rules (redocly.yaml names the one rule
 * switched off and why), with no error and no warning: the committed snapshot, and the document
 * as served for each role source (the security part changes with it).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { renderSnapshotDocument, SNAPSHOT_PATH } from '../support/openapi-document';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');

interface Verdict {
  file: string;
  valid: true | string;
  problems: { rule: string; severity: string; message: string; at: string | null }[];
}

async function check(files: string[]): Promise<Verdict[]> {
  const { stdout } = await run(
    process.execPath,
    [
      '-r',
      require.resolve('@swc-node/register'),
      join(__dirname, 'check-openapi.ts'),
      join(ROOT, 'redocly.yaml'),
      ...files,
    ],
    { cwd: ROOT, env: { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json') } },
  );
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Verdict);
}

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nl2sql-lint-'));
  const sources: Record<string, Record<string, unknown>> = {
    static_role: { role: 'admin' },
    body_role: { trust_body_role: true },
    header_and_body: { role_header: 'X-Roles', trust_body_role: true },
    none: {},
  };
  for (const [name, api] of Object.entries(sources)) {
    writeFileSync(join(dir, `${name}.json`), await renderSnapshotDocument(api));
  }
});

it('the committed snapshot is valid and lints clean', async () => {
  expect(await check([SNAPSHOT_PATH])).toEqual([{ file: SNAPSHOT_PATH, valid: true, problems: [] }]);
}, 60_000);

it('the document of every role source is valid and lints clean', async () => {
  const files = ['static_role', 'body_role', 'header_and_body', 'none'].map((n) => join(dir, `${n}.json`));
  expect(await check(files)).toEqual(files.map((file) => ({ file, valid: true, problems: [] })));
}, 60_000);

it('can fail: a dangling $ref and an operation without summary are reported', async () => {
  const broken = JSON.parse(await renderSnapshotDocument());
  broken.components.schemas.QueryResponseDto.properties.artifact_refs.additionalProperties = {
    $ref: '#/components/schemas/Missing',
  };
  delete broken.paths['/health'].get.summary;
  const file = join(dir, 'broken.json');
  writeFileSync(file, JSON.stringify(broken));
  const [verdict] = await check([file]);
  expect(verdict!.valid).toMatch(/Missing/);
  expect(
    verdict!.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.severity} ${p.rule}`)
      .sort(),
  ).toEqual(['error no-unresolved-refs', 'error operation-summary']);
}, 60_000);

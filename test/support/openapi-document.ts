/**
 * The OpenAPI document as the committed snapshot (docs/openapi.json) holds it: the app built with
 * `api.role_header: X-Roles`, so that the snapshot carries the role-header security scheme SDK users
 * need behind a proxy. Datasources do not change the document; nothing is connected here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import { buildOpenApi } from '../../src/api/common/openapi';
import { parseConfig } from '../../src/config/loader';

export const SNAPSHOT_PATH = join(__dirname, '..', '..', 'docs', 'openapi.json');

/** The role source of the snapshot; tests that compare with it serve the same. */
export const SNAPSHOT_API = { role_header: 'X-Roles' } as const;

/** The document's text as it is committed: two-space JSON and a final newline. */
export function documentText(document: unknown): string {
  return JSON.stringify(document, null, 2) + '\n';
}

/** The document the app serves for a given `api` section (the snapshot's by default). */
export async function renderSnapshotDocument(api: Record<string, unknown> = SNAPSHOT_API): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'nl2sql-openapi-'));
  const config = parseConfig(
    {
      api,
      datasources: [{ id: 'demo', type: 'sqlite', connection: { path: join(dir, 'never-opened.sqlite') } }],
      storage: {
        results: { path: join(dir, 'results') },
        traces: { path: join(dir, 'traces') },
        index: { path: join(dir, 'index') },
      },
    },
    'openapi snapshot config',
    { baseDir: dir },
  );
  const app = await createApp(config);
  try {
    // Through JSON, as /openapi.json serves it (no undefined members).
    return documentText(JSON.parse(JSON.stringify(buildOpenApi(app))));
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

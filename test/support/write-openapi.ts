/**
 * Regenerates docs/openapi.json from the app, and the playground page's wire types from it:
 * `npm run openapi:write`. The contract tests fail until the committed snapshot equals what the
 * app serves and the page's types equal what the snapshot generates, so run this after an
 * intended change and review the diff.
 */
import 'reflect-metadata';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSnapshotDocument, SNAPSHOT_PATH } from './openapi-document';
import { PAGE_TYPES_DIR, renderPageWireTypes } from './page-wire-types';

async function main(): Promise<void> {
  writeFileSync(SNAPSHOT_PATH, await renderSnapshotDocument());
  console.log(`wrote ${SNAPSHOT_PATH}`);
  const files = await renderPageWireTypes(SNAPSHOT_PATH);
  mkdirSync(PAGE_TYPES_DIR, { recursive: true });
  for (const name of readdirSync(PAGE_TYPES_DIR)) rmSync(join(PAGE_TYPES_DIR, name));
  for (const [name, text] of files) writeFileSync(join(PAGE_TYPES_DIR, name), text);
  console.log(`wrote ${PAGE_TYPES_DIR}/{${[...files.keys()].join(',')}}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

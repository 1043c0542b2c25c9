/**
 * Regenerates docs/openapi.json from the app: `npm run openapi:write`. The contract test fails
 * until the committed snapshot equals what the app serves, so run this after an intended change
 * and review the diff.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { renderSnapshotDocument, SNAPSHOT_PATH } from './openapi-document';

renderSnapshotDocument()
  .then((text) => {
    writeFileSync(SNAPSHOT_PATH, text);
    console.log(`wrote ${SNAPSHOT_PATH}`);
  })
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });

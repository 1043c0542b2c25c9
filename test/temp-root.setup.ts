/**
 * Jest's globalSetup: every temporary file of the run goes below one new folder of the OS temp
 * folder (TMPDIR, which os.tmpdir() and the SQLite runner processes read), removed by
 * temp-root.teardown.ts when the run ends. Tests make hundreds of folders (apps, fixtures,
 * configs); without this a run left over a hundred of them behind.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setUpTempRoot(): void {
  const root = mkdtempSync(join(tmpdir(), 'nl2sql-test-run-'));
  process.env.NL2SQL_TEST_TEMP_ROOT = root;
  process.env.TMPDIR = root;
}

/** The run's temporary files go below the folder temp-root.setup.ts made, which the teardown removes. */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';

it('points the OS temp folder at the run folder', () => {
  const root = process.env.NL2SQL_TEST_TEMP_ROOT;
  expect(root).toMatch(/nl2sql-test-run-/);
  expect(tmpdir()).toBe(root);
  expect(existsSync(root!)).toBe(true);
});

/** Jest's globalTeardown: removes the run's temporary folder (see temp-root.setup.ts). */
import { rmSync } from 'node:fs';

export default function tearDownTempRoot(): void {
  const root = process.env.NL2SQL_TEST_TEMP_ROOT;
  if (root) rmSync(root, { recursive: true, force: true });
}

/** Smoke test of `npm run bench -- values`: its worst case (a value index at a cap) on a smaller scale. */
import { cappedWorstCase } from '../../bench/values';

it('builds a value index of generated values and finds the values questions name', () => {
  const figures = cappedWorstCase(30, 5000);
  expect(figures.values).toBe(5000);
  // Questions name stored values as stored, lower-cased or with a letter dropped: most are found.
  expect(figures.found).toBeGreaterThan(0.8);
  expect(figures.lookup_ms.p95).toBeGreaterThanOrEqual(figures.lookup_ms.p50);
});

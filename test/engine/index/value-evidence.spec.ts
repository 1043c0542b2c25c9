/**
 * A stored value counts as routing evidence only when the caller's roles may read its column: a
 * value of a denied column must not steer where a question goes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEmbedder } from '../../../src/engine/index/embedders/local-embedder';
import { IndexService } from '../../../src/engine/index/index-service';
import { DuckDbIndexStore } from '../../../src/engine/index/store/duckdb-index-store';
import type { ValueSource } from '../../../src/engine/index/values/collect';
import { readableEvidence } from '../../../src/engine/policy/value-evidence';
import { school, shop } from '../../support/index-fixtures';

/** "Zanzibar" is stored only in school's student last names; the shop stores nothing of it. */
const schoolValues: ValueSource = {
  async distinctValues(t, column) {
    return t.name === 'student' && column === 'LName' ? [{ value: 'Zanzibar', count: 1 }] : [];
  },
};

let dir: string;
let index: IndexService;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'value-evidence-'));
  index = new IndexService({
    store: new DuckDbIndexStore(join(dir, 'index.duckdb')),
    embedder: new LocalEmbedder(),
  });
  await index.open();
  await index.indexDatasource('shop', shop());
  await index.indexDatasource('school', school(), {}, schoolValues);
});
afterEach(async () => {
  await index.close();
  rmSync(dir, { recursive: true, force: true });
});

const scoreOf = async (question: string, evidence = {}) =>
  (await index.rankDatasources(question, evidence)).find((r) => r.datasourceId === 'school')!.score;

it('counts a value of a column the role may read, and ignores one it may not', async () => {
  const question = 'Which records mention Zanzibar?';
  const policies = {
    reader: {},
    analyst: { columns: { deny: ['school.student.LName'] } },
  };
  // The same question with no value counted at all.
  const base = await scoreOf(question, { valueFilter: { scope: 'none', accept: () => false } });
  const open = await scoreOf(question, readableEvidence(policies, ['reader']));
  const denied = await scoreOf(question, readableEvidence(policies, ['analyst']));
  expect(open).toBeGreaterThan(base);
  // The denied column's value adds nothing.
  expect(denied).toBe(base);
  // Scores are cached per role scope: asking again as the reader still counts the value.
  expect(await scoreOf(question, readableEvidence(policies, ['reader']))).toBe(open);
  // No policies: every value counts.
  expect(await scoreOf(question, readableEvidence(null, []))).toBe(open);
});

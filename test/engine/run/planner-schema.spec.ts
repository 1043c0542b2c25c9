/**
 * The planner's schema for a large schema: the linked tables and columns only, and a table whose
 * only clue in the question is a stored value is linked through the value index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEmbedder } from '../../../src/engine/index/embedders/local-embedder';
import { IndexService } from '../../../src/engine/index/index-service';
import { DuckDbIndexStore } from '../../../src/engine/index/store/duckdb-index-store';
import type { ValueSource } from '../../../src/engine/index/values/collect';
import { plannerSchemaText } from '../../../src/engine/run/prompts/planner-schema';
import { isLargeSchema } from '../../../src/engine/run/prompts/schema-text';
import { snapshot, table } from '../../support/index-fixtures';

// 30 tables of 5 columns: over the large-schema bound, so the planner sees linked tables only.
const topics = [
  'invoice',
  'shipment',
  'vehicle',
  'warehouse',
  'supplier',
  'ticket',
  'campaign',
  'contract',
  'asset',
  'budget',
];
const tables = [
  ...Array.from({ length: 29 }, (_, i) => {
    const t = `${topics[i % topics.length]}_${i}`;
    return table(t, [
      [`${t}_id`, 'integer'],
      [`${t}_label`, 'text'],
      [`${t}_status`, 'text'],
      [`${t}_amount`, 'decimal'],
      ['created_on', 'date'],
    ]);
  }),
  table('regions', [
    ['region_id', 'integer'],
    ['region_code', 'text'],
    ['governor', 'text'],
    ['seat', 'text'],
    ['founded_on', 'date'],
  ]),
];
const big = snapshot('big', tables);

/** Stored values: only `regions.region_code` holds "Gelderland". */
const source: ValueSource = {
  async distinctValues(t, column) {
    if (t.name === 'regions' && column === 'region_code')
      return [
        { value: 'Gelderland', count: 3 },
        { value: 'Utrecht', count: 1 },
      ];
    if (column.endsWith('_status'))
      return [
        { value: 'open', count: 10 },
        { value: 'closed', count: 4 },
      ];
    return [];
  },
};

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'planner-schema-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function promptFor(question: string, withValues: boolean): Promise<string> {
  const index = new IndexService({
    store: new DuckDbIndexStore(join(dir, `${withValues}.duckdb`)),
    embedder: new LocalEmbedder(),
  });
  await index.open();
  try {
    await index.indexDatasource('big', big, {}, withValues ? source : undefined);
    return await plannerSchemaText({
      question,
      datasourceId: 'big',
      snapshot: big,
      index,
      policies: null,
      roles: [],
    });
  } finally {
    await index.close();
  }
}

it('links the table whose only clue is a value the question names, and shows the value as stored', async () => {
  expect(isLargeSchema(big)).toBe(true);
  const question = 'How many people live in gelderland?';
  const grounded = await promptFor(question, true);
  expect(grounded).toMatch(/^CREATE TABLE regions \(/m);
  expect(grounded).toContain("region_code VARCHAR, -- matches: 'Gelderland' (exact); e.g. 'Utrecht'");
  // Only the linked part of the schema: far from all 30 tables.
  expect((grounded.match(/^CREATE TABLE /gm) ?? []).length).toBeLessThan(15);
  // The same index without values neither links that table nor knows the value.
  const ungrounded = await promptFor(question, false);
  expect(ungrounded).not.toContain("'Gelderland'");
  expect(ungrounded).not.toMatch(/^CREATE TABLE regions \(/m);
});

/**
 * What answer_synthesizer renders from the rows: the summary's prompt (the first rows of each
 * result and its count) and the answer's content table.
 */
import { renderContent } from '../../../src/engine/run/nodes/answer-synthesizer';
import { describeResults } from '../../../src/engine/run/prompts/answer';
import type { SubQueryState } from '../../../src/engine/run/run-state';

function subQuery(rows: number, extra: Partial<SubQueryState> = {}): SubQueryState {
  return {
    intent: 'Every singer',
    sql: 'SELECT name FROM singer',
    rowCount: rows,
    truncated: false,
    datasourceRowCap: 1000,
    rows: {
      columns: ['name'],
      rows: Array.from({ length: rows }, (_, i) => [`singer ${i}`]),
      total_rows: rows,
    },
    ...extra,
  } as unknown as SubQueryState;
}

test('a small result is shown whole, with its columns and count', () => {
  const text = describeResults('Who sings?', [subQuery(3)], true);
  expect(text).toContain('Question: Who sings?');
  expect(text).toContain('Columns: name\nRows: 3\n["singer 0"]\n["singer 1"]\n["singer 2"]');
  expect(text).not.toContain('not shown');
});

test('a long sample shows its first 50 rows, the true count, and how many rows it leaves out', () => {
  const text = describeResults('Who sings?', [subQuery(400)], true);
  expect(text).toContain('Rows: 400\n');
  expect(text).toContain('["singer 49"]');
  expect(text).not.toContain('["singer 50"]');
  expect(text).toContain('(350 more rows of the sample not shown)');
});

test('a result cut at its row cap says so', () => {
  const text = describeResults('Who sings?', [subQuery(2, { truncated: true, datasourceRowCap: 2 })], true);
  expect(text).toContain('Rows: 2 (cut at its row cap of 2: more rows exist)');
});

test('a plan that was not executed shows its SQL instead of rows', () => {
  const text = describeResults('Who sings?', [subQuery(0, { rows: null })], false);
  expect(text).toContain('SQL (not executed): SELECT name FROM singer');
});

test('the content table shows the first 100 rows of a long sample and says how many there are', () => {
  const content = renderContent([subQuery(400)], true);
  expect(content.startsWith('| name |\n| --- |\n| singer 0 |')).toBe(true);
  expect(content).toContain('| singer 99 |');
  expect(content).not.toContain('| singer 100 |');
  expect(content.endsWith('100 of 400 rows shown.')).toBe(true);
  expect(renderContent([subQuery(3)], true)).toBe(
    '| name |\n| --- |\n| singer 0 |\n| singer 1 |\n| singer 2 |',
  );
});

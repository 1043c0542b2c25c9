import { stringify } from 'csv-stringify/sync';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultBatch } from '../../../src/engine/datasources/adapter';
import { LocalResultStore } from '../../../src/engine/storage';
import { numberedRows, readAll, tempRoot } from '../../support/storage-helpers';

describe('LocalResultStore.streamCsv', () => {
  const root = tempRoot('results-csv');
  const scratch = join(root.path, 'scratch');
  mkdirSync(scratch);
  const store = new LocalResultStore(join(root.path, 'results'), { scratchDir: scratch });
  afterAll(async () => {
    await store.close();
    root.remove();
  });

  it('writes the header first, then one line per row, nulls empty and empty strings quoted', async () => {
    const batch: ResultBatch = {
      columns: [
        { name: 'id', kind: 'integer' },
        { name: 'name, full', kind: 'text' },
        { name: 'ok', kind: 'boolean' },
        { name: 'price', kind: 'decimal' },
      ],
      rows: [
        [1, 'plain', true, 12.5],
        [2, null, false, '12345678901234567890.12'],
        [3, '', null, null],
      ],
    };
    await store.writeResult('t', 'run', 'r', [batch]);
    const { text } = await readAll(await store.streamCsv('t', 'run', 'r'));
    expect(text).toBe(
      'id,"name, full",ok,price\n' +
        '1,plain,true,12.5\n' +
        '2,,false,12345678901234567890.12\n' +
        '3,"",,\n',
    );
  });

  it('quotes text exactly as csv-stringify does (commas, quotes, CR, LF, unicode)', async () => {
    const values = ['a,b', 'say "hi"', 'line1\nline2', 'cr\rhere', 'naïve – ünïcødé 🚀', ' spaced ', "it's"];
    await store.writeResult('t', 'run', 'quoting', [
      { columns: [{ name: 'v', kind: 'text' }], rows: values.map((v) => [v]) },
    ]);
    const { text } = await readAll(await store.streamCsv('t', 'run', 'quoting'));
    expect(text).toBe(stringify([['v'], ...values.map((v) => [v])]));
  });

  it('streams a large result in several slices with every row in order', async () => {
    const total = 120_000;
    await store.writeResult('t', 'run', 'big', numberedRows(total, 5000));
    const stream = await store.streamCsv('t', 'run', 'big');
    let chunks = 0;
    let expected = 0;
    let carry = '';
    let header: string | undefined;
    const wrong: string[] = [];
    for await (const chunk of stream) {
      chunks++;
      const lines = (carry + (chunk as Buffer).toString('utf8')).split('\n');
      carry = lines.pop()!;
      for (const line of lines) {
        if (header === undefined) header = line;
        else if (line !== `${expected},row ${expected++}` && wrong.length < 5) wrong.push(line);
      }
    }
    expect(header).toBe('n,label');
    expect(wrong).toEqual([]);
    expect(carry).toBe('');
    expect(expected).toBe(total);
    // The header, then at least two slices of rows: the file was never produced in one piece.
    expect(chunks).toBeGreaterThanOrEqual(3);
    // Each slice's scratch file is gone once read.
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('removes the slices written ahead when the consumer stops mid-export', async () => {
    // Slices of about one 5000-row group each, so several are written ahead of the one read.
    const sliced = new LocalResultStore(join(root.path, 'results'), {
      scratchDir: scratch,
      csvSliceBytes: 60_000,
    });
    await sliced.writeResult('t', 'run', 'mid', numberedRows(200_000, 5000));
    const stream = await sliced.streamCsv('t', 'run', 'mid');
    const chunks: Buffer[] = [];
    // The header, then the first rows: by then the next slices are being written ahead.
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      if (chunks.length === 2) break;
    }
    await new Promise((resolve) => (stream.closed ? resolve(null) : stream.once('close', resolve)));
    expect(String(chunks[1]).startsWith('0,row 0\n')).toBe(true);
    expect(readdirSync(scratch)).toEqual([]);
    const page = await sliced.readPage('t', 'run', 'mid', { offset: 199_999, limit: 1 });
    expect(page.rows).toEqual([[199_999, 'row 199999']]);
    await sliced.close();
  });

  it('stops reading when the consumer destroys the stream early', async () => {
    await store.writeResult('t', 'run', 'early', numberedRows(50_000, 5000));
    const stream = await store.streamCsv('t', 'run', 'early');
    const first: unknown = await new Promise((resolve) => stream.once('data', resolve));
    expect(String(first)).toBe('n,label\n');
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    expect(stream.destroyed).toBe(true);
    expect(readdirSync(scratch)).toEqual([]);
    // The store keeps serving after an abandoned export.
    const page = await store.readPage('t', 'run', 'early', { offset: 49_999, limit: 1 });
    expect(page.rows).toEqual([[49_999, 'row 49999']]);
  });
});

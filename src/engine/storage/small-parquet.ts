/**
 * A small result (at most one DuckDB data chunk of rows) is held in memory and encoded to parquet in
 * this process by hyparquet-writer and written under a temporary name, then renamed into place.
 * Going through DuckDB instead (a TEMP table, the appender, `COPY ... TO`) costs the event loop far
 * more for a few rows; large results still stream through DuckDB.
 *
 * The layout is the one parquet-columns.ts defines (BIGINT, DOUBLE, BOOLEAN, text), with the kinds
 * the values decide (stored-kinds.ts), so the reader cannot tell which path wrote a file.
 */
import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer';
import type { Cell, ResultBatch, ResultColumn } from '../datasources/adapter';
import { writeFileAtomic } from './atomic-file';
import { encodeCell, manifestColumns, physicalTypeOf, type PhysicalType } from './parquet-columns';
import type { MetadataFor, ParquetWriteOutcome } from './parquet-outcome';
import { RESULT_METADATA_KEY } from './result-metadata';
import { StorageWriteError } from './storage-errors';
import { ColumnKinds, storedCell } from './stored-kinds';

const PARQUET_TYPE: Record<PhysicalType, 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'STRING'> = {
  BIGINT: 'INT64',
  DOUBLE: 'DOUBLE',
  BOOLEAN: 'BOOLEAN',
  VARCHAR: 'STRING',
};

/** `batches` empty: the result had no batch at all, and `fallbackColumns` name its columns. */
export async function writeSmallParquet(
  finalPath: string,
  batches: readonly ResultBatch[],
  fallbackColumns: readonly ResultColumn[],
  metadataFor?: MetadataFor,
  sampleRows = 0,
): Promise<ParquetWriteOutcome> {
  const first = batches[0];
  const declared = first ? first.columns : fallbackColumns;
  const rows = batches.length === 1 ? first!.rows : batches.flatMap((b) => b.rows);
  for (const b of batches) {
    if (b.columns.length !== declared.length) {
      throw new StorageWriteError(
        `A result batch has ${b.columns.length} columns where the first had ${declared.length}`,
      );
    }
  }
  const kinds = new ColumnKinds(declared);
  kinds.observe(rows);
  const columns = manifestColumns(kinds.columns(declared));
  const width = columns.length;
  if (width === 0 && rows.length) throw new StorageWriteError('A result with no columns cannot hold rows');
  const columnData: ColumnSource[] = columns.map((col) => ({
    name: col.field,
    type: PARQUET_TYPE[physicalTypeOf(col.kind)],
    data: new Array<unknown>(rows.length),
  }));
  rows.forEach((row, r) => {
    if (row.length !== width)
      throw new StorageWriteError(`A result row has ${row.length} cells for ${width} columns`);
    for (let c = 0; c < width; c++)
      (columnData[c]!.data as unknown[])[r] = encodeCell(columns[c]!, row[c] ?? null);
  });
  // Parquet needs at least one column; a result with none stores a placeholder never read back.
  if (!width) columnData.push({ name: '_no_columns', type: 'INT32', data: [] });
  // Read loosely, as the staged path does: the flag is optional in the adapter contract.
  const truncated = batches.some((b) => (b as { truncated?: boolean }).truncated === true);
  const facts = { columns, rowCount: rows.length, truncated };
  const metadata = metadataFor?.(facts);
  // Uncompressed and without statistics: a small file is read whole, and encoding is the cost.
  const bytes = parquetWriteBuffer({
    columnData,
    codec: 'UNCOMPRESSED',
    statistics: false,
    ...(metadata === undefined ? {} : { kvMetadata: [{ key: RESULT_METADATA_KEY, value: metadata }] }),
  });
  await writeFileAtomic(finalPath, new Uint8Array(bytes), '.parquet.tmp');
  return { ...facts, sample: storedRows(rows.slice(0, sampleRows), columns) };
}

/** Rows as a file whose columns are stored as `columns` gives them back. */
export function storedRows(
  rows: readonly (readonly Cell[])[],
  columns: readonly { kind: ResultColumn['kind'] }[],
): Cell[][] {
  return rows.map((row) => columns.map((col, i) => storedCell(col.kind, row[i] ?? null)));
}

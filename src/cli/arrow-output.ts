/**
 * `nl2sql ask ... --arrow FILE`: each saved result of the answer written as the Arrow IPC stream
 * the HTTP `.arrow` route sends, streamed into the file batch by batch. The first sub-query's
 * result goes to FILE itself; any other to FILE with its result id before the extension
 * (`out.arrows`, `out.sq2.arrows`), since one IPC stream holds one schema.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Engine } from '../create-engine';
import { ResultsService } from '../engine/admin/results.service';
import type { QueryResponse } from '../engine/run/query-response';

export interface WrittenArrow {
  readonly resultId: string;
  readonly path: string;
}

export function arrowPathFor(file: string, resultId: string, first: boolean): string {
  if (first) return file;
  const ext = extname(file);
  return `${file.slice(0, file.length - ext.length)}.${resultId}${ext}`;
}

export async function writeArrowFiles(
  engine: Pick<Engine, 'get'>,
  response: QueryResponse,
  file: string,
): Promise<WrittenArrow[]> {
  const results = engine.get(ResultsService);
  const ids = response.sub_queries.map((sq) => sq.id).filter((id) => id in response.artifact_refs);
  const written: WrittenArrow[] = [];
  for (const [i, resultId] of ids.entries()) {
    const path = arrowPathFor(file, resultId, i === 0);
    try {
      await pipeline(await results.arrow(response.trace_id, resultId), createWriteStream(path));
    } catch (err) {
      // No half-written stream left behind to be read as a whole one.
      await rm(path, { force: true });
      throw err;
    }
    written.push({ resultId, path });
  }
  return written;
}

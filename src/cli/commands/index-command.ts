/** `nl2sql index [ID | --all]`: builds the schema and value index, as POST /api/v1/index... do. */
import { IndexAdmin } from '../../engine/admin/index-admin.service';
import type { IndexingStats } from '../../engine/index';
import { UsageError, type CommandIo, type CommandOptions } from '../io';
import { withEngine } from '../with-engine';

export async function indexCommand(
  args: readonly string[],
  options: CommandOptions,
  io: CommandIo,
): Promise<number> {
  if (args.length > 1 || (args.length === 1 && options.all) || (!args.length && !options.all)) {
    throw new UsageError('index takes one datasource id, or --all');
  }
  return withEngine(options.env, io, async (engine) => {
    const admin = engine.get(IndexAdmin);
    if (!options.all) {
      io.out(line(await admin.indexDatasource(args[0]!)));
      return 0;
    }
    const result = await admin.indexAll();
    for (const s of result.stats) io.out(line(s));
    for (const e of result.errors) io.err(`nl2sql: ${e.datasource_id}: ${e.error_code}: ${e.error}`);
    return result.errors.length ? 1 : 0;
  });
}

function line(s: IndexingStats): string {
  return `${s.datasource_id}: ${s.entries} entries, ${s.values} values, version ${s.index_version}, ${s.seconds} s`;
}

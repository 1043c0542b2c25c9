/** `nl2sql index [ID | --all]`: builds the schema and value index, as POST /api/v1/index... do. */
import { IndexAdmin } from '../../engine/admin/index-admin.service';
import { sendLogsToStderr } from '../../engine/logging/logger';
import { engineFromConfig, failureMessage, reportFailure } from '../engine-from-config';
import { UsageError, type CommandIo, type CommandOptions } from '../io';

export async function indexCommand(
  args: readonly string[],
  options: CommandOptions,
  io: CommandIo,
): Promise<number> {
  if (args.length > 1 || (args.length === 1 && options.all) || (!args.length && !options.all)) {
    throw new UsageError('index takes one datasource id, or --all');
  }
  sendLogsToStderr();
  let loaded;
  try {
    loaded = await engineFromConfig(options.env);
  } catch (err) {
    return reportFailure(io, err);
  }
  const { engine } = loaded;
  try {
    const admin = engine.get(IndexAdmin);
    if (options.all) {
      const result = await admin.indexAll();
      for (const s of result.stats) {
        io.out(
          `${s.datasource_id}: ${s.entries} entries, ${s.values} values, version ${s.index_version}, ${s.seconds} s`,
        );
      }
      for (const e of result.errors) io.err(`nl2sql: ${e.datasource_id}: ${e.error_code}: ${e.error}`);
      return result.errors.length ? 1 : 0;
    }
    const s = await admin.indexDatasource(args[0]!);
    io.out(
      `${s.datasource_id}: ${s.entries} entries, ${s.values} values, version ${s.index_version}, ${s.seconds} s`,
    );
    return 0;
  } catch (err) {
    io.err(`nl2sql: ${failureMessage(err)}`);
    return 1;
  } finally {
    await engine.close();
  }
}

/** `nl2sql serve`: the API server, exactly as `npm start` runs it (HOST, PORT, NL2SQL_CONFIG). */
import { failStart, serve } from '../../serve';
import { KEEPS_RUNNING, UsageError, type CommandIo, type CommandOptions } from '../io';

export async function serveCommand(
  args: readonly string[],
  options: CommandOptions,
  _io: CommandIo,
): Promise<number> {
  if (args.length) throw new UsageError(`serve takes no arguments (got ${args.join(' ')})`);
  await serve(options.env).catch(failStart);
  return KEEPS_RUNNING;
}

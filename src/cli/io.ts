/** What a command writes to and reads from; the CLI's own process streams, or a test's. */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
  readonly env: NodeJS.ProcessEnv;
}

export interface CommandOptions {
  readonly env: NodeJS.ProcessEnv;
  /** `--role` (repeatable); null: the config's static `api.role`, if any. */
  readonly roles: readonly string[] | null;
  readonly datasource: string | null;
  readonly json: boolean;
  readonly all: boolean;
  /** `ask --arrow FILE`: where to write the results as Arrow IPC streams; null: not asked. */
  readonly arrow?: string | null;
  /** `eval --baseline FILE`: the saved run to compare with and to replace; null: the default. */
  readonly baseline?: string | null;
  /** `eval --id ID` (repeatable): only these verified queries. */
  readonly ids?: readonly string[] | null;
}

/** A command line that cannot be run as written: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** A command that keeps running (serve, mcp): the process stays up until a signal or stdin ends. */
export const KEEPS_RUNNING = -1;

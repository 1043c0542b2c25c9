/** `nl2sql` run as a user runs it: bin/nl2sql.js in a process of its own, its output collected. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const NL2SQL_BIN = resolve(__dirname, '..', '..', 'bin', 'nl2sql.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runNl2sql(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [NL2SQL_BIN, ...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

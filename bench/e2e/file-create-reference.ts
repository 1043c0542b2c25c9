/**
 * The storage folder's cost of creating a file, measured in the same run as the throughput: a run
 * creates three things there (its result folder, its parquet file, its trace), and on some virtual
 * disks creating one costs more than anything else a run does (this suite printed 0.02 to 0.42 ms
 * on one machine's disk within half an hour, 0.007 to 0.010 ms on tmpfs). Printed beside runs/s
 * so that two runs of the bench can be compared knowing the disk they ran on.
 */
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const FILES = 300;

/** CPU (user + system) of this process per file created empty in a scratch folder of `dir`, ms. */
export function fileCreateCpuMs(dir: string): number {
  const scratch = join(dir, `file-create-reference-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  try {
    const before = process.cpuUsage();
    for (let i = 0; i < FILES; i++) closeSync(openSync(join(scratch, `f${i}`), 'wx'));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / FILES;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

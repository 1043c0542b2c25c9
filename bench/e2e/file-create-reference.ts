/**
 * The storage folder's cost of creating a file, measured in the same run as the throughput: a run
 * creates three things there (its result folder, its parquet file, its trace), and on some virtual
 * disks creating one costs more than anything else a run does (0.05 to 0.7 ms of kernel time were
 * seen on one machine within an hour, against ~0.01 ms on tmpfs). Printed beside runs/s so that two
 * runs of the bench can be compared knowing the disk they ran on.
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

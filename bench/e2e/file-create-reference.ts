/**
 * The storage folder's cost of creating a file, measured in the same run as the throughput: a run
 * creates three things there (its result folder, its parquet file, its trace), and on some virtual
 * disks creating one costs more than anything else a run does (this suite printed 0.02 to 0.9 ms
 * on one machine's disk, 0.007 to 0.010 ms on tmpfs). Printed beside runs/s so that two runs of the
 * bench can be compared knowing the disk they ran on.
 *
 * The files are left in place, to go with the storage folder when the service closes: on ext4
 * without a journal, the inode allocator skips inode numbers freed in the last minutes
 * (`recently_deleted` in the kernel's ialloc.c), each skip a lookup in the buffer cache, so
 * deleting them here would make every file the runs create afterwards cost more (`perf record -a`
 * over a pass showed that path at a quarter of the main thread's samples after a deletion).
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

const FILES = 300;

/** CPU (user + system) of this process per file created empty in a new folder `name` of `dir`, ms. */
export function fileCreateCpuMs(dir: string, name: string): number {
  const scratch = join(dir, `file-create-reference-${name}`);
  mkdirSync(scratch);
  const before = process.cpuUsage();
  for (let i = 0; i < FILES; i++) closeSync(openSync(join(scratch, `f${i}`), 'wx'));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / FILES;
}

/** The files this process holds open under `dir` (Linux: /proc/self/fd), to see what an export let go of. */
import { readdirSync, readlinkSync } from 'node:fs';

export function openFilesUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return []; // closed since the listing
    }
  });
}

/**
 * Resident memory of another process as the operating system counts it (VmRSS, read from
 * Linux's /proc/<pid>/status): everything of it in RAM, the V8 heap, typed arrays, native
 * libraries' allocations (SQLite's) and the allocator's unused arenas alike. Elsewhere, or once
 * the process is gone, it is unknown (undefined), and figures drawn from it are reported as missing.
 */
import { readFileSync } from 'node:fs';

/** KiB of `pid` resident in RAM now, or undefined when /proc does not say. */
export function residentKiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return match === null ? undefined : Number(match[1]);
}

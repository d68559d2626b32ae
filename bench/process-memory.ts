/**
 * Resident memory of a process as the operating system counts it (VmRSS, read from
 * Linux's /proc/<pid>/status): everything of it in RAM, the V8 heap, typed arrays, native
 * libraries' allocations (SQLite's) and the allocator's unused arenas alike. Elsewhere, or once
 * the process is gone, it is unknown (undefined), and figures drawn from it are reported as missing.
 */
import { readFileSync } from 'node:fs';

/** KiB of `pid` resident in RAM now, or undefined when /proc does not say. */
export function residentKiB(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : statusKiB(String(pid), 'VmRSS');
}

/** KiB this process has had resident at most (VmHWM, its peak), or undefined when /proc does not say. */
export function peakResidentKiB(): number | undefined {
  return statusKiB('self', 'VmHWM');
}

/** A field in kB of /proc/<pid>/status, or undefined when there is no such file or field. */
function statusKiB(pid: string, field: 'VmRSS' | 'VmHWM'): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  return match === null ? undefined : Number(match[1]);
}

/**
 * CPU time of other processes (the cluster bench's gateways, workers and nats-server), read from
 * Linux's /proc/<pid>/stat: user plus system time, every thread of the process included (Node's
 * garbage collector and libuv pool too). Elsewhere, or once a process is gone, it is unknown
 * (undefined), and the figures drawn from it are reported as missing rather than guessed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, 100 on Linux when it cannot say). */
const TICKS_PER_SECOND = (() => {
  const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5_000 });
  const ticks = Number(answer.stdout?.trim());
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
})();

/** Seconds of CPU `pid` has used so far, or undefined when /proc does not say. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count the fields after it.
  // Field 3 (state) comes first there; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return Number.isFinite(user) && Number.isFinite(system) ? (user + system) / TICKS_PER_SECOND : undefined;
}

/** The CPU seconds `pids` used together so far, or undefined if any is unknown. */
function totalCpuSeconds(pids: readonly (number | undefined)[]): number | undefined {
  let total = 0;
  for (const pid of pids) {
    const seconds = cpuSeconds(pid);
    if (seconds === undefined) return undefined;
    total += seconds;
  }
  return total;
}

/** Starts counting: the returned function gives the CPU seconds `pids` used together since (undefined if any is unknown). */
export function cpuSince(pids: readonly (number | undefined)[]): () => number | undefined {
  const before = totalCpuSeconds(pids);
  return () => {
    const after = totalCpuSeconds(pids);
    return before === undefined || after === undefined ? undefined : after - before;
  };
}

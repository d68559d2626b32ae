/**
 * Loaded into a bench child with `node --import`: at exit, writes the CPU seconds the process
 * used (user plus system, every thread's, the parse threads that ended before it included, as
 * getrusage counts them) to the file STANDING_BENCH_CPU_FILE names. A child's /proc entry is gone
 * once it has exited, so the child tells its own. See ./run-child.ts.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.STANDING_BENCH_CPU_FILE;
if (file !== undefined) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, String((user + system) / 1e6));
  });
}

/**
 * CPU time of the PostgreSQL backends that serve the connections named `application` (their
 * `application_name`), read from /proc (./process-cpu.ts): only when the server runs on this
 * machine and its processes can be read; otherwise unknown (undefined). A backend that starts
 * after the count began counts from nothing; one that ends before it is read is lost (the store's
 * pool keeps its connections while it is busy).
 */
import pg from 'pg';
import { cpuSeconds } from './process-cpu.js';

async function backends(url: string, application: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [application]);
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** Starts counting: the returned function gives the CPU seconds those backends used since, or undefined when /proc says nothing of any. */
export async function postgresCpuSince(url: string, application: string): Promise<() => Promise<number | undefined>> {
  const before = new Map<number, number>();
  for (const pid of await backends(url, application)) {
    const seconds = cpuSeconds(pid);
    if (seconds !== undefined) before.set(pid, seconds);
  }
  return async () => {
    let total: number | undefined;
    for (const pid of await backends(url, application)) {
      const seconds = cpuSeconds(pid); // undefined: not readable here, or the backend ended since the query
      if (seconds !== undefined) total = (total ?? 0) + seconds - (before.get(pid) ?? 0);
    }
    return total;
  };
}

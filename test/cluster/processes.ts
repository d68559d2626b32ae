/**
 * Workers as real child processes (`node dist/cli/main.js worker …`), for the tests that kill
 * one; and the lease bucket read from outside, to see which worker holds what.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited, startRole } from '../../src/cluster/child-processes.js';
import { Leases, type LeaseValue } from '../../src/cluster/leases.js';
import { connectNats, openBuckets } from '../../src/cluster/nats.js';
import type { ServiceConfig } from '../../src/service/config.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface WorkerProcess {
  readonly id: string;
  readonly child: ChildProcess;
  /** Resolves when the process has exited (by itself or by a signal). */
  readonly exited: Promise<void>;
}

/** Writes `config` where `standing worker --config` reads it; `remove` deletes it. */
export function configFile(config: ServiceConfig): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'standing-cluster-config-'));
  const path = join(dir, 'standing.json');
  writeFileSync(path, JSON.stringify(config));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts `standing worker --config <path> --id <id>` and resolves once it says it runs (bounded).
 * `spawned` is told of the process as soon as it exists, before it runs: the caller's cleanup is
 * registered even when it never says it runs.
 */
export async function spawnWorker(configPath: string, id: string, spawned: (child: ChildProcess) => void): Promise<WorkerProcess> {
  const { child } = await startRole(MAIN, ['worker', '--config', configPath, '--id', id], new RegExp(`standing worker ${id} runs`), { spawned, stderr: 'pipe' });
  return { id, child, exited: exited(child) };
}

/** Reads the lease bucket of `config`'s stream (a listing not done within its bound is tried again, up to 3 times). */
export async function leaseReader(config: ServiceConfig): Promise<{ held(): Promise<Map<number, LeaseValue>>; close(): Promise<void> }> {
  const nc = await connectNats(config.cluster, 'standing test lease reader');
  const buckets = await openBuckets(nc, config.cluster);
  const leases = new Leases(buckets.leases, 'reader');
  const held = async (attempt = 1): Promise<Map<number, LeaseValue>> => {
    try {
      return await leases.held();
    } catch (error) {
      if (attempt >= 3) throw error;
      return held(attempt + 1);
    }
  };
  return { held: () => held(), close: () => nc.close() };
}

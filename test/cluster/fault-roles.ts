/**
 * Gateways and workers of the fault tier as child processes (`node dist/cli/main.js gateway|worker`)
 * that can be SIGKILLed and started again as the same role: a gateway on the same port (its
 * clients see refused connections meanwhile, then the new process), a worker with the same id (it
 * waits for its former leases to lapse, as a restarted machine does). Every process ever started
 * is killed by `stopAll`, and each says it runs within a bound (./processes.ts, child-processes.ts).
 * A process that exits before it runs is started again, up to 10 times 2 s apart, as a
 * supervisor (systemd's `Restart=on-failure`) does; each failed start is recorded.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exited, startRole, stopChild } from '../../src/cluster/child-processes.js';
import type { ServiceConfig } from '../../src/service/config.js';
import { freePort } from '../support/nats-cluster.js';
import { configFile, spawnWorker } from './processes.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/** How long a stop waits for SIGTERM before SIGKILL (ms). */
const STOP_GRACE_MS = 5_000;

export interface Role {
  /** `gateway 1`, `worker w2`. */
  readonly name: string;
  /** The gateway's URL (fixed across restarts); undefined for a worker. */
  readonly url: string | undefined;
  /** How many times it has been started (failed starts included). */
  readonly starts: number;
  running(): boolean;
  /** SIGKILLs the running process. */
  kill(): Promise<void>;
  /** Starts it again (resolves once it says it runs). */
  start(): Promise<void>;
}

/** How many times a role is started before its start counts as failed, as a supervisor restarts it. */
const START_ATTEMPTS = 10;
/** The wait before starting it again (ms). */
const RESTART_AFTER_MS = 2_000;

const firstLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '').slice(0, 4).join(' | ');

export class RoleProcesses {
  /** Every start that failed (the process exited or did not say it runs): the role and the first lines of its output. */
  readonly failedStarts: string[] = [];
  private readonly children: ChildProcess[] = [];
  private readonly files: { remove(): void }[] = [];

  /** A gateway on a port of its own (its own configuration file, `config` with that port); started. */
  async gateway(config: ServiceConfig, index: number): Promise<Role> {
    const port = await freePort();
    const file = configFile({ ...config, port });
    this.files.push(file);
    return this.role(`gateway ${index}`, `http://127.0.0.1:${port}`, async (spawned) => {
      const { child } = await startRole(MAIN, ['gateway', '--config', file.path], /standing gateway serves at (\S+) /, { spawned, stderr: 'pipe' });
      return child;
    });
  }

  /** A worker with id `id`; started. */
  async worker(config: ServiceConfig, id: string): Promise<Role> {
    const file = configFile(config);
    this.files.push(file);
    return this.role(`worker ${id}`, undefined, async (spawned) => (await spawnWorker(file.path, id, spawned)).child);
  }

  /** Stops every process (SIGTERM, SIGKILL after a bound) and removes the configuration files. */
  async stopAll(): Promise<void> {
    await Promise.all(this.children.splice(0).map((child) => stopChild(child, STOP_GRACE_MS)));
    for (const file of this.files.splice(0)) file.remove();
  }

  private async role(name: string, url: string | undefined, launch: (spawned: (child: ChildProcess) => void) => Promise<ChildProcess>): Promise<Role> {
    let child: ChildProcess | undefined;
    let starts = 0;
    const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
    const start = async () => {
      if (running()) throw new Error(`${name} runs already`);
      for (let attempt = 1; ; attempt++) {
        starts++;
        try {
          child = await launch((spawned) => this.children.push(spawned));
          return;
        } catch (error) {
          const reason = firstLines(String(error));
          this.failedStarts.push(`${name}: ${reason}`);
          if (attempt >= START_ATTEMPTS) throw new Error(`${name} did not start in ${START_ATTEMPTS} attempts; the last: ${reason}`);
          await new Promise((resolve) => setTimeout(resolve, RESTART_AFTER_MS));
        }
      }
    };
    await start();
    return {
      name,
      url,
      get starts() {
        return starts;
      },
      running,
      async kill() {
        if (child === undefined || !running()) return;
        child.kill('SIGKILL');
        await exited(child);
      },
      start,
    };
  }
}

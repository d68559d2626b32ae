/**
 * A three-node NATS JetStream cluster for the fault tier whose third node can be cut off from the
 * other two: it runs inside a network namespace of its own (`sft-<pid>`), joined to this host by a
 * veth pair (`sft<pid>h` here, `sft<pid>n` inside) on a /30 of 10.231.0.0/16 chosen from the pid.
 * The two host nodes take clients on loopback and routes on the host end's address; the namespaced
 * node takes both on its end's address; every route goes over the pair. `cut()` takes the
 * namespace's end down (the host's local route to its own end stays, so the host nodes keep their
 * routes to each other; the namespaced node and its clients hear nothing until `restore()`). No
 * other traffic: everything listens on loopback or on the pair's two addresses.
 *
 * Each node keeps its configuration and store directory, so `start(i)` after `kill(i)` brings the
 * same server back to rejoin; `healthy(i)` waits for its monitoring `/healthz` to say its JetStream
 * is current with the others. `stop()` kills every server and removes the namespace, the pair and
 * the directory, and `removeLeftovers()` removes those of earlier runs whose process is gone (a
 * run SIGKILLed before its cleanup), leaving a live run's alone. Needs root (`ip netns`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, killWithParent } from '../../src/cluster/child-processes.js';
import { supportsSyncAlways } from '../../src/cluster/durability.js';
import { freePorts, jetStreamReady, NATS_SERVER, natsServerVersion } from '../../src/cluster/local-nats.js';

/** The prefix of every namespace and link this module makes (with the pid of the process that made it). */
const PREFIX = 'sft';

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the namespaces (and the servers still in them) and links of earlier runs whose process has exited. */
export function removeLeftovers(): string[] {
  const removed: string[] = [];
  for (const line of ip('netns', 'list').split('\n')) {
    const name = /^(sft-(\d+))\b/.exec(line);
    if (name === null || alive(Number(name[2]))) continue;
    for (const pid of ip('netns', 'pids', name[1]!).split('\n').filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
    ip('netns', 'del', name[1]!);
    removed.push(name[1]!);
  }
  for (const line of ip('-o', 'link', 'show').split('\n')) {
    const link = /^\d+:\s+(sft(\d+)[hn])[@:]/.exec(line);
    if (link === null || alive(Number(link[2]))) continue;
    ip('link', 'del', link[1]!);
    removed.push(link[1]!);
  }
  return removed;
}

export interface NetnsNatsCluster {
  /** Every client URL (the namespaced node's last). */
  readonly urls: string[];
  /** The namespace of the third node. */
  readonly namespace: string;
  /** SIGKILLs node `index` (0–2). */
  kill(index: number): Promise<void>;
  /** Starts node `index` again with its configuration and store. */
  start(index: number): void;
  /** Waits until node `index` says its JetStream is current with the cluster's meta leader, within `ms`; rejects naming its last answer. */
  healthy(index: number, ms: number): Promise<void>;
  /** Whether node `index` is running. */
  running(index: number): boolean;
  /** Takes the namespace's end of the pair down: the third node hears nothing from the others or its clients. */
  cut(): void;
  /** Brings it up again. */
  restore(): void;
  /** Kills every server, removes the namespace, the pair and the directory. */
  stop(): Promise<void>;
}

interface Node {
  readonly name: string;
  readonly url: string;
  /** Its monitoring `/healthz?js-server-only=true`: 200 once its JetStream is current with the meta leader (streams may still catch up). */
  readonly health: string;
  readonly start: () => ChildProcess;
  process: ChildProcess | undefined;
}

export async function startNetnsNatsCluster(): Promise<NetnsNatsCluster> {
  const pid = process.pid;
  const namespace = `${PREFIX}-${pid}`;
  const hostLink = `${PREFIX}${pid}h`;
  const innerLink = `${PREFIX}${pid}n`;
  const net = `10.231.${(pid >> 6) & 255}`;
  const hostAddress = `${net}.${(pid & 63) * 4 + 1}`;
  const innerAddress = `${net}.${(pid & 63) * 4 + 2}`;
  const root = mkdtempSync(join(tmpdir(), 'standing-faults-nats-'));
  const nodes: Node[] = [];
  let made = false;
  const teardown = async () => {
    for (const node of nodes) node.process?.kill('SIGKILL');
    await Promise.all(nodes.flatMap((n) => (n.process === undefined ? [] : [exited(n.process)])));
    if (made) {
      try {
        ip('netns', 'del', namespace);
      } catch {
        // already gone
      }
      try {
        ip('link', 'del', hostLink);
      } catch {
        // removed with the namespace's end
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    made = true;
    ip('netns', 'add', namespace);
    ip('link', 'add', hostLink, 'type', 'veth', 'peer', 'name', innerLink);
    ip('link', 'set', innerLink, 'netns', namespace);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostLink);
    ip('link', 'set', hostLink, 'up');
    ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${innerAddress}/30`, 'dev', innerLink);
    ip('netns', 'exec', namespace, 'ip', 'link', 'set', innerLink, 'up');
    ip('netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up');

    const version = natsServerVersion();
    const sync = supportsSyncAlways(version) ? ', sync_interval: always' : '';
    const ports = await freePorts(9);
    const [clientPorts, routePorts, monitorPorts] = [ports.slice(0, 3), ports.slice(3, 6), ports.slice(6)];
    const clientHosts = ['127.0.0.1', '127.0.0.1', innerAddress];
    const routeHosts = [hostAddress, hostAddress, innerAddress];
    const routes = routePorts.map((p, i) => `nats://${routeHosts[i]}:${p}`).join(', ');
    for (let i = 0; i < 3; i++) {
      const name = `n${i + 1}`;
      const file = join(root, `${name}.conf`);
      writeFileSync(
        file,
        [
          `server_name: ${name}`,
          `listen: ${clientHosts[i]}:${clientPorts[i]}`,
          `http: ${clientHosts[i]}:${monitorPorts[i]}`,
          'max_payload: 8MB',
          `jetstream { store_dir: "${join(root, name)}"${sync} }`,
          `cluster { name: standing-faults, listen: ${routeHosts[i]}:${routePorts[i]}, routes: [${routes}] }`,
        ].join('\n'),
      );
      const command = i === 2 ? ['ip', ['netns', 'exec', namespace, NATS_SERVER, '-c', file]] as const : [NATS_SERVER, ['-c', file]] as const;
      const start = () => killWithParent(spawn(command[0], command[1], { stdio: 'ignore' }));
      nodes.push({ name, url: `nats://${clientHosts[i]}:${clientPorts[i]}`, health: `http://${clientHosts[i]}:${monitorPorts[i]}/healthz?js-server-only=true`, start, process: start() });
    }
    await jetStreamReady(nodes.map((n) => n.url), nodes.length);
  } catch (error) {
    await teardown();
    throw error;
  }
  const node = (index: number) => {
    const n = nodes[index];
    if (n === undefined) throw new Error(`no NATS node ${index} (0–2)`);
    return n;
  };
  const running = (index: number) => {
    const p = node(index).process;
    return p !== undefined && p.exitCode === null && p.signalCode === null;
  };
  return {
    urls: nodes.map((n) => n.url),
    namespace,
    async kill(index) {
      const p = node(index).process;
      if (p === undefined) return;
      p.kill('SIGKILL');
      await exited(p);
    },
    start(index) {
      if (running(index)) throw new Error(`NATS node ${node(index).name} runs already`);
      node(index).process = node(index).start();
    },
    running,
    async healthy(index, ms) {
      const deadline = Date.now() + ms;
      let last = '';
      for (;;) {
        try {
          const response = await fetch(node(index).health, { signal: AbortSignal.timeout(2_000) });
          last = `${response.status} ${await response.text()}`;
          if (response.status === 200) return;
        } catch (error) {
          last = String(error);
        }
        if (Date.now() > deadline) throw new Error(`NATS node ${node(index).name} not healthy within ${ms} ms: ${last}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    cut: () => void ip('netns', 'exec', namespace, 'ip', 'link', 'set', innerLink, 'down'),
    restore: () => void ip('netns', 'exec', namespace, 'ip', 'link', 'set', innerLink, 'up'),
    stop: teardown,
  };
}


/**
 * The faults of the fault tier, drawn from seeded generators and injected for a bounded phase: a
 * worker or a gateway SIGKILLed and started again, a NATS node SIGKILLed and started again on its
 * configuration and store (it rejoins), the namespaced NATS node cut off from
 * the others and its clients and then reconnected (../support/netns-nats.ts). Each lane's kinds
 * each come once in its first two faults (in a seeded order), then any; each fault is followed by a
 * pause. What was done is written to `journal`, for the report of a failure.
 */
import type { NetnsNatsCluster } from '../support/netns-nats.js';
import type { Rng } from '../../src/util/random.js';
import type { Role } from './fault-roles.js';

export type ProcessFault = 'worker' | 'gateway';
export type NatsFault = 'nats-kill' | 'nats-cut';

export interface FaultTargets {
  readonly workers: readonly Role[];
  readonly gateways: readonly Role[];
  readonly nats: NetnsNatsCluster;
}

export interface FaultTimes {
  /** How long the phase lasts: no fault starts after it (ms). */
  readonly phaseMs: number;
  /** A process stays down between this and twice this (ms). */
  readonly processDownMs: number;
  /** A NATS node stays down, or cut off, between this and twice this (ms). */
  readonly natsDownMs: number;
  /** The pause after each fault of a lane, between this and twice this (ms). */
  readonly pauseMs: number;
}

/** How long a NATS node back from a fault may take to catch up before the next NATS fault (ms). */
const NATS_HEALTHY_WITHIN_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const between = (rng: Rng, ms: number) => Math.round(ms + rng() * ms);

/** `kinds` in a seeded order, then any of them: the lane's fault number `i`. */
function kindOf<T>(rng: Rng, kinds: readonly [T, T], i: number, first: boolean): T {
  if (i === 0) return kinds[first ? 0 : 1];
  if (i === 1) return kinds[first ? 1 : 0];
  return pick(rng, kinds);
}

/**
 * Injects faults until the phase ends or `halted()` (a client failed), in two lanes at once, each
 * one fault at a time: processes (a worker or a gateway SIGKILLed, started again) and NATS (a node
 * SIGKILLed and started again, or the namespaced node cut off and reconnected), so that partitions
 * change hands while the JetStream API pauses. At most one NATS node is away at a time, and the
 * next NATS fault waits until the node back from the last says its JetStream is current again (its
 * `/healthz`): one server of three lost at a time, the failure docs/deploy.md describes. Every
 * process and node runs and the pair is up when it resolves.
 */
export async function injectFaults(rngs: { processes: Rng; nats: Rng }, targets: FaultTargets, times: FaultTimes, journal: string[], halted: () => boolean): Promise<void> {
  const started = Date.now();
  const at = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const going = () => Date.now() - started < times.phaseMs && !halted();
  const processes = async (rng: Rng) => {
    const first = rng() < 0.5;
    for (let i = 0; going(); i++) {
      const kind = kindOf<ProcessFault>(rng, ['worker', 'gateway'], i, first);
      const role = pick(rng, kind === 'worker' ? targets.workers : targets.gateways);
      const down = between(rng, times.processDownMs);
      journal.push(`${at()}: SIGKILL ${role.name}, down for ${down} ms`);
      await role.kill();
      await sleep(down);
      await role.start();
      journal.push(`${at()}: ${role.name} runs again`);
      await sleep(between(rng, times.pauseMs));
    }
  };
  const nats = async (rng: Rng) => {
    const first = rng() < 0.5;
    for (let i = 0; going(); i++) {
      const kind = kindOf<NatsFault>(rng, ['nats-kill', 'nats-cut'], i, first);
      const down = between(rng, times.natsDownMs);
      if (kind === 'nats-kill') {
        const node = Math.floor(rng() * 3);
        journal.push(`${at()}: SIGKILL NATS node n${node + 1}, down for ${down} ms`);
        await targets.nats.kill(node);
        await sleep(down);
        targets.nats.start(node);
        journal.push(`${at()}: NATS node n${node + 1} started again`);
        await targets.nats.healthy(node, NATS_HEALTHY_WITHIN_MS);
        journal.push(`${at()}: NATS node n${node + 1} healthy`);
      } else {
        journal.push(`${at()}: NATS node n3 cut off (namespace ${targets.nats.namespace}) for ${down} ms`);
        targets.nats.cut();
        await sleep(down);
        targets.nats.restore();
        journal.push(`${at()}: NATS node n3 reconnected`);
        await targets.nats.healthy(2, NATS_HEALTHY_WITHIN_MS);
        journal.push(`${at()}: NATS node n3 healthy`);
      }
      await sleep(between(rng, times.pauseMs));
    }
  };
  await Promise.all([processes(rngs.processes), nats(rngs.nats)]);
}
